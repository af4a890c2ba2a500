"""A multipart/form-data body read from its bytes, as the loopback Discord reads an upload (the JSON payload and the
files, ``answers.request_body``).

aiohttp's own reader (``request.post()``) parses every part's headers with the standard library's e-mail parser and
spools each file through a temporary file: it was about a third of the fake Discord's CPU in the process bench, and
its chunked reading warns (``unread_data()`` is deprecated) on some chunk boundaries. A form from discord.py is
simple: parts split by the boundary, each with a ``Content-Disposition: form-data; name=...`` header and, for a file,
a ``filename``. Values are read as aiohttp's reader gives them (a quoted file name is not percent-decoded).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote

_PARAM: Final = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)')
_ESCAPED: Final = re.compile(r"\\(.)")


class MalformedBody(ValueError):
    """The body is not the multipart/form-data its content type says."""


@dataclass(frozen=True)
class Part:
    name: str
    filename: str | None  # a file's part has one
    content_type: str | None
    data: bytes

    def text(self) -> str:
        return self.data.decode("utf-8")


def boundary(content_type: str) -> str:
    """The boundary of a ``multipart/form-data; boundary=...`` content type."""
    found = parameters(content_type).get("boundary")
    if not found:
        raise MalformedBody(f"no boundary in the content type {content_type!r}")
    return found


def parameters(header: str) -> dict[str, str]:
    """The ``; key=value`` parameters of a header's value, keys in lower case, quoted strings unquoted, and an
    extended value (``name*=utf-8''...``, RFC 5987) decoded under its plain key."""
    found: dict[str, str] = {}
    for key, value in _PARAM.findall(header):
        key = key.lower()
        value = _ESCAPED.sub(r"\1", value[1:-1]) if value.startswith('"') else value.strip()
        if key.endswith("*"):
            charset, _, encoded = value.partition("'")
            _language, _, encoded = encoded.partition("'")
            key, value = key[:-1], unquote(encoded, encoding=charset or "utf-8")
        found[key] = value
    return found


def parts(body: bytes, boundary: str) -> list[Part]:
    """The parts of a multipart/form-data ``body``, in order. Found by position, so that a file's bytes are copied
    once (into its part), not with every split of the body."""
    delimiter = b"--" + boundary.encode("ascii")
    if not body.startswith(delimiter):
        raise MalformedBody("the body does not start with its boundary")
    between = b"\r\n" + delimiter  # what ends a part's data
    found: list[Part] = []
    at = len(delimiter)  # just after a boundary
    while True:
        if body.startswith(b"--", at):  # the closing delimiter; what follows it is the epilogue
            return found
        if not body.startswith(b"\r\n", at):
            raise MalformedBody("a boundary is not followed by a line end")
        end = body.find(between, at)
        if end < 0:
            raise MalformedBody("the body ends without its closing boundary")
        blank = body.find(b"\r\n\r\n", at + 2, end)
        if blank < 0:
            raise MalformedBody("a part has no blank line after its headers")
        found.append(_part(body[at + 2 : blank], body[blank + 4 : end]))
        at = end + len(between)


def _part(head: bytes, data: bytes) -> Part:
    """One part from its header lines and its data."""
    headers = {}
    for line in head.decode("utf-8").split("\r\n"):
        key, colon, value = line.partition(":")
        if not colon:
            raise MalformedBody(f"a part's header line has no colon: {line!r}")
        headers[key.strip().lower()] = value.strip()
    disposition = headers.get("content-disposition", "")
    params = parameters(disposition)
    if disposition.split(";", 1)[0].strip().lower() != "form-data" or "name" not in params:
        raise MalformedBody(f"a part is not a named form-data part: {disposition!r}")
    return Part(params["name"], params.get("filename"), headers.get("content-type"), data)
