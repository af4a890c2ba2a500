"""User-facing text: the message catalogue, lists in each language's format, and event narration."""

from bot.text.catalogue import MESSAGES
from bot.text.i18n import listing, t

__all__ = ["MESSAGES", "listing", "t"]
