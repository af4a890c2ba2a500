"""The pseudo language's leak finder: words a person reads that did not come through the catalogues."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from tests.bot.conftest import flat


def untranslated(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Words of ``text`` outside the pseudo-language's ⟦ ⟧ marks: text that bypassed the catalogues.

    Mentions, numbers and the ``allowed`` words (data such as players' names) are not words of ours."""
    previous = None
    while previous != text:
        previous, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    text = re.sub(r"<[@#]!?\d+>", "", text)  # mentions are Discord's, not words
    words = re.findall(r"[^\W\d_]+", text)
    skip = set(allowed)
    return [word for word in words if word not in skip]


def texts_of(message: Any) -> list[str]:
    """Everything a person reads on a message: content, embeds, labels, placeholders, options."""
    found = [message.content or ""]
    for embed in getattr(message, "embeds", []) or []:
        data = embed if isinstance(embed, dict) else embed.to_dict()
        found += [str(data.get("title") or ""), str(data.get("description") or "")]
        found += [str(f.get("name", "")) + " " + str(f.get("value", "")) for f in data.get("fields", [])]
        found.append(str((data.get("footer") or {}).get("text") or ""))
    for component in flat(message):
        found += [str(component.get("label") or ""), str(component.get("placeholder") or "")]
        for choice in component.get("options") or []:
            found += [str(choice.get("label") or ""), str(choice.get("description") or "")]
    return found
