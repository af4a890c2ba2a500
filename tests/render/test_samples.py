"""The sample images in docs/images are what ``python -m render.samples`` draws today: games played by the
``standard`` computer players from fixed seeds. A change to the drawing code or to the computer players that
changes a picture fails here until the samples are regenerated (``python -m render.samples docs/images``).

Pixels are compared, not bytes, so that another zlib build encoding the same picture differently does not count.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from render.samples import FILES, main

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def test_the_committed_samples_are_what_regenerating_them_draws(tmp_path: Path) -> None:
    assert main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(FILES)
    assert sorted(p.name for p in IMAGES.glob("*.png")) == sorted(FILES), "docs/images holds exactly the samples"
    stale = []
    for name in FILES:
        with Image.open(IMAGES / name) as old, Image.open(tmp_path / name) as new:
            if old.size != new.size or old.convert("RGBA").tobytes() != new.convert("RGBA").tobytes():
                stale.append(name)
    assert stale == [], f"regenerate with `python -m render.samples docs/images`: {stale} changed"
