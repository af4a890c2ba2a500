"""Discord's REST failures as a test injects them, and the record of every request the fake answered.

A fault hits the requests matching a route pattern (``"POST /channels/*/messages"``: a method, or none for any; ``*``
or ``{name}`` is one path segment, ``**`` the rest of the path), for its next ``times`` requests and/or for
``for_seconds``, whichever ends first. Kinds:

- ``error``: a 5xx with Discord's body (``{"message": "500: Internal Server Error", "code": 0}``); nothing is done.
- ``rate_limit``: a 429 with ``retry_after``, ``global`` and the ``X-RateLimit-*`` headers; nothing is done.
- ``hang``: nothing happens for ``delay`` seconds, then the request goes through and is answered.
- ``hang_after``: the request goes through at once (the message exists), its answer comes ``delay`` seconds later.
- ``lose_answer``: the request goes through at once, then the connection is closed without an answer.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

KINDS = ("error", "rate_limit", "hang", "hang_after", "lose_answer")
REASONS = {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def compile_route(pattern: str) -> tuple[str | None, re.Pattern[str]]:
    """``"POST /channels/*/messages"`` -> ("POST", regex of the path); no method: any."""
    method, _, path = pattern.strip().rpartition(" ")
    parts = []
    for segment in path.strip("/").split("/"):
        if segment == "**":
            parts.append(".*")
        elif segment == "*" or (segment.startswith("{") and segment.endswith("}")):
            parts.append("[^/]+")
        else:
            parts.append(re.escape(segment))
    return (method.upper() or None), re.compile("/" + "/".join(parts))


@dataclass
class Fault:
    kind: str
    route: str
    status: int = 500
    delay: float = 0.0  # hang, hang_after: seconds
    retry_after: float = 1.0  # rate_limit
    is_global: bool = False  # rate_limit: Discord's global limit rather than the route's
    times: int | None = 1  # None: no count (until for_seconds is over, or cancel())
    for_seconds: float | None = None
    hits: int = 0
    cancelled: bool = False
    _method: str | None = field(default=None, init=False, repr=False)
    _path: re.Pattern[str] = field(default=re.compile(""), init=False, repr=False)
    _until: float | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault {self.kind!r}; one of {KINDS}")
        self._method, self._path = compile_route(self.route)
        if self.for_seconds is not None:
            self._until = time.monotonic() + self.for_seconds

    @property
    def active(self) -> bool:
        if self.cancelled or (self.times is not None and self.hits >= self.times):
            return False
        return self._until is None or time.monotonic() < self._until

    def matches(self, method: str, path: str) -> bool:
        return (self._method in (None, "*", method)) and self._path.fullmatch(path) is not None

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Exchange:
    """One REST request and what became of it."""

    method: str
    path: str
    started: float
    status: int = 0  # the answer the fake gave (or would have given: see ``delivered``); 0 while in flight
    code: int | None = None  # Discord's error code, when the answer is an error
    fault: str | None = None  # the kind of fault injected into it
    nonce: str | None = None
    message_id: int | None = None  # the message created (or found again by its nonce)
    deduplicated: bool = False  # the nonce matched a recent message: that one was answered, none was created
    answered: float | None = None  # when the answer was written; None: in flight, or lost

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def delivered(self) -> bool:
        return self.answered is not None

    def matches(self, pattern: str) -> bool:
        method, path = compile_route(pattern)
        return method in (None, "*", self.method) and path.fullmatch(self.path) is not None


def server_error_body(status: int) -> dict[str, Any]:
    return {"message": f"{status}: {REASONS.get(status, 'Server Error')}", "code": 0}


def rate_limit_answer(
    retry_after: float, *, is_global: bool = False, bucket: str = "fake", limit: int = 5, scope: str | None = None
) -> tuple[dict[str, Any], dict[str, str]]:
    """Discord's 429: body and headers. ``Via`` matters: without it discord.py takes the 429 for a Cloudflare ban."""
    retry = round(retry_after, 3)
    body = {"message": "You are being rate limited.", "retry_after": retry, "global": is_global}
    headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry))}
    if is_global:
        headers.update({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"})
    else:
        headers.update(
            {
                "X-RateLimit-Scope": scope or "user",
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                "X-RateLimit-Reset-After": str(retry),
                "X-RateLimit-Bucket": bucket,
            }
        )
    return body, headers


def error_code(body: bytes) -> int | None:
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data.get("code") if isinstance(data, dict) else None
