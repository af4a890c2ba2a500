"""User-facing text: the message catalogue and event narration."""

from bot.text.catalogue import MESSAGES
from bot.text.i18n import t

__all__ = ["MESSAGES", "t"]
