"""User-facing text: the message catalogue and event narration."""

from bot.text.catalogue import MESSAGES, t

__all__ = ["MESSAGES", "t"]
