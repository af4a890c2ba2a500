"""The one rule for fitting a label in Discord's limits: the names give way, the rest of the label stays whole."""

from __future__ import annotations

import pytest

from bot.text import t
from bot.text.i18n import speaking
from bot.text.limits import BUTTON_LABEL, ELLIPSIS, LABEL, MODAL_TITLE, Name, Names, clip, fitted, shorten

ASTRONAUT = "👩\u200d🚀"  # three code points, one picture


def test_a_name_that_fits_stays_whole() -> None:
    assert shorten("Alice", 5) == "Alice"


def test_a_long_name_keeps_its_beginning_and_an_ellipsis() -> None:
    assert shorten("Wilhelmina Augusta", 8) == "Wilhelm…"
    assert shorten("Жозефина Александровна", 10) == "Жозефина…"  # no space left before the ellipsis


@pytest.mark.parametrize("length", range(1, 12))
def test_a_name_is_never_cut_inside_an_emoji_or_before_a_mark(length: int) -> None:
    for name in (ASTRONAUT * 10, "🇫🇷" * 10, "e\u0301" * 10, "👍🏽" * 10):
        short = shorten(name, length)
        kept = short.removesuffix(ELLIPSIS)
        assert len(short) <= length
        assert name.startswith(kept)
        rest = name[len(kept) :]
        assert rest == "" or rest.startswith(name[: len(name) // 10]), (name, length, short)


def test_fitted_shortens_only_the_name_and_keeps_the_offer_number() -> None:
    name = Name("Жозефина Александровна Ёлкина-Щу")
    with speaking("ru"):
        title = fitted(MODAL_TITLE, "catan.modal.counter_title", offer=12, name=name)
        whole = t("catan.modal.counter_title", offer=12, name="Жоз")
    assert len(title) <= MODAL_TITLE and ELLIPSIS in title and "12" in title
    head = whole.partition("Жоз")[0]  # the title's words up to the name, all of them kept
    assert title.startswith(head + "Жоз"), title


def test_fitted_gives_each_name_in_a_list_the_same_room() -> None:
    names = Names(("W" * 32, "Ж" * 32, "測" * 32), "or")
    with speaking("en"):
        text = fitted(LABEL, "catan.robber_victims", names=names)
    assert len(text) <= LABEL
    lengths = {len(part.split(" ")[-1]) for part in text.replace(",", "").split(" or ")}
    assert len(lengths) == 1, text


def test_a_label_that_fits_is_left_alone() -> None:
    with speaking("en"):
        assert fitted(BUTTON_LABEL, "carcassonne.ransom", name=Name("Bob")) == "Pay ransom to Bob"


def test_the_last_guard_cuts_with_an_ellipsis() -> None:
    assert clip("abcdef", 4) == "abc…"
    assert clip("abc", 4) == "abc"
