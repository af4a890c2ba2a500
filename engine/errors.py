"""The one exception type every rule violation raises."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """A rejected action or set-up.

    ``code`` is stable (translations key on it), ``params`` fills the translated message and ``message`` is the
    English text. The game state is unchanged whenever this is raised.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r}, **{self.params!r})"
