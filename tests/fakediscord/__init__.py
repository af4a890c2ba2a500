"""A loopback fake of Discord's gateway and REST API for tests that run the real bot as a process."""

from tests.fakediscord import limits
from tests.fakediscord.server import Attachment, FakeDiscord, Interaction, Message, Violation

__all__ = ["Attachment", "FakeDiscord", "Interaction", "Message", "Violation", "limits"]
