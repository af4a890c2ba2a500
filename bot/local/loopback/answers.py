"""How the loopback Discord reads a REST request and answers it: JSON as Discord sends it, its error shapes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from aiohttp import web

from bot.local.loopback import multipart, payloads
from bot.local.loopback.faults import Exchange
from bot.local.loopback.stored import Attachment, Violation

EXCHANGE = web.RequestKey("exchange", Exchange)
BODY = web.RequestKey("body", tuple[dict[str, Any], list[Attachment]])


class Uploads(Protocol):
    """Where uploads are kept, with the ids they get (the fake's store)."""

    attachments: dict[int, Attachment]

    def next_id(self) -> int: ...


def reply(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """JSON with the bare content type discord.py looks for (aiohttp's own adds a charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers, content_type="application/json")


def error(status: int, code: int, message: str) -> web.Response:
    return reply({"code": code, "message": message}, status=status)


def refuse(violations: list[Violation], route: str, problems: list[payloads.Problem]) -> web.Response:
    """Discord's 400 Invalid Form Body, recorded as a violation (the test fails on it)."""
    body = payloads.error_body(problems)
    violations.append(Violation(route, body, payloads.describe(problems)))
    return reply(body, status=400)


async def request_body(request: web.Request, uploads: Uploads) -> tuple[dict[str, Any], list[Attachment]]:
    """The request's JSON payload and uploads (read once: a hang reads them before its wait)."""
    if BODY not in request:
        request[BODY] = await _read_body(request, uploads)
    return request[BODY]


async def _read_body(request: web.Request, uploads: Uploads) -> tuple[dict[str, Any], list[Attachment]]:
    # The header read as it stands: aiohttp's ``request.content_type`` parses it with the e-mail package, about a
    # tenth of this fake's CPU when every request asked.
    content_type = request.headers.get("Content-Type", "")
    if content_type.split(";", 1)[0].strip().lower().startswith("multipart/"):
        form = multipart.parts(await request.read(), multipart.boundary(content_type))
        fields = {part.name: part for part in form if part.filename is None}
        payload = json.loads(fields["payload_json"].text()) if "payload_json" in fields else {}
        files = []
        # the payload's attachments describe the uploads by index: "files[0]" is {"id": 0, "description": ...}
        described = {str(a.get("id")): a.get("description") for a in payload.get("attachments") or []}
        for part in form:
            if part.name.startswith("files[") and part.filename is not None:
                description = described.get(part.name[len("files[") : -1])
                upload = Attachment(uploads.next_id(), part.filename, part.data, part.content_type, description)
                uploads.attachments[upload.id] = upload
                files.append(upload)
        return payload, files
    if request.can_read_body:
        return await request.json(), []
    return {}, []
