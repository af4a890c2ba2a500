"""The loopback Discord's REST API: every request authenticated, recorded (``exchanges``) and hit by the faults a
test injects (5xx, 429, a hang, a lost answer), then routed by resource: the application and its commands, users and
DMs, channels and messages (``channel_routes``), interactions and webhooks (``interaction_routes``); and the uploads,
served at their url."""

from __future__ import annotations

import asyncio
import mimetypes
import time
from typing import Any

from aiohttp import web

from bot.local.loopback import payloads
from bot.local.loopback.answers import EXCHANGE, error, refuse, reply, request_body
from bot.local.loopback.channel_routes import ChannelRoutes
from bot.local.loopback.faults import Exchange, Fault, error_code, rate_limit_answer, server_error_body
from bot.local.loopback.interaction_routes import InteractionRoutes
from bot.local.loopback.store import Store


class Routes:
    """Serves ``/api/v10/...`` (``serve``) and ``/attachments/{id}/{name}`` (``attachment``)."""

    def __init__(self, store: Store, channel_routes: ChannelRoutes, interaction_routes: InteractionRoutes) -> None:
        self.store = store
        self.channel_routes = channel_routes
        self.interaction_routes = interaction_routes
        self._held: set[asyncio.Task[Any]] = set()  # requests a hang holds before doing them

    async def serve(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        route = f"{request.method} {path}"
        exchange = Exchange(request.method, path, time.monotonic())
        self.store.exchanges.append(exchange)
        request[EXCHANGE] = exchange
        try:
            fault = None
            if (
                not path.startswith(("/webhooks/", "/interactions/"))
                and request.headers.get("Authorization") != f"Bot {self.store.token}"
            ):
                response: web.StreamResponse = error(401, 0, "401: Unauthorized")
            else:
                fault = self._fault(request.method, path)
                exchange.fault = fault.kind if fault else None
                if fault is not None and fault.kind == "hang":
                    # all of it arrived: a client giving up now does not stop it
                    await request_body(request, self.store)
                    held = asyncio.current_task()
                    assert held is not None
                    self._held.add(held)
                    try:
                        await self.store.hold(fault.delay)
                    finally:
                        self._held.discard(held)
                if fault is not None and fault.kind == "error":
                    response = reply(server_error_body(fault.status), status=fault.status)
                elif fault is not None and fault.kind == "rate_limit":
                    body, headers = rate_limit_answer(
                        fault.retry_after, is_global=fault.is_global, bucket=f"fault-{id(fault):x}"
                    )
                    response = reply(body, status=429, headers=headers)
                else:
                    response = await self._route(request, route, path.strip("/").split("/"))
            exchange.status = response.status
            if response.status >= 400 and isinstance(response, web.Response) and isinstance(response.body, bytes):
                exchange.code = error_code(response.body)
            if fault is not None and fault.kind == "hang_after":
                await self.store.notify()  # what was done is there to see while the answer waits
                await self.store.hold(fault.delay)
            if (fault is not None and fault.kind == "lose_answer") or request.transport is None:
                if request.transport is not None:
                    request.transport.close()  # aiohttp then fails quietly to write the answer
                return response
            exchange.answered = time.monotonic()
            return response
        finally:
            await self.store.notify()

    async def _route(self, request: web.Request, route: str, p: list[str]) -> web.StreamResponse:
        m = request.method
        if m == "GET" and p == ["users", "@me"]:
            return reply(self.store.bot_user)
        if m == "GET" and p == ["oauth2", "applications", "@me"]:
            return reply(
                {
                    "id": str(self.store.application_id),
                    "name": "boardhost",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "owner": self.store.users.get(0, self.store.bot_user),
                    "team": None,
                    "summary": "",
                    "rpc_origins": [],
                    "interactions_endpoint_url": None,
                    "bot": self.store.bot_user,
                }
            )
        if (m == "GET" and p[:2] == ["gateway", "bot"]) or p == ["gateway"]:
            return reply(
                {
                    "url": self.store.gateway_url,
                    "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
                }
            )
        if p[0] == "applications" and p[-1] == "commands":
            guild = int(p[3]) if len(p) == 5 and p[2] == "guilds" else None
            if m == "PUT":
                return await self._overwrite(request, route, guild)
            if m == "GET":
                return reply(self.store.commands.get(guild, []))
        if p[0] == "channels" and len(p) >= 3 and p[2] == "messages":
            return await self.channel_routes.messages(request, route, int(p[1]), p[3:])
        if m == "GET" and len(p) == 2 and p[0] == "users" and p[1].isdigit():
            user = self.store.users.get(int(p[1]))
            return reply(user) if user is not None else error(404, 10013, "Unknown User")
        if m == "POST" and p == ["users", "@me", "channels"]:
            body = await request.json()
            user_id = int(body["recipient_id"])
            channel_id = next((c for c, u in self.store.dm_channels.items() if u == user_id), None)
            if channel_id is None:
                channel_id = self.store.next_id()
                self.store.dm_channels[channel_id] = user_id
                self.store.messages[channel_id] = []
            return reply(
                {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [self.store.users[user_id]]}
            )
        if p[0] == "interactions" and p[-1] == "callback":
            return await self.interaction_routes.callback(request, route, int(p[1]), p[2])
        if p[0] == "webhooks" and len(p) >= 3:
            return await self.interaction_routes.webhook(request, route, p[2], p[3:])
        if len(p) == 2 and p[0] == "channels" and p[1].isdigit():
            return self.channel_routes.channel(m, int(p[1]))
        if m == "POST" and len(p) == 3 and p[0] == "channels" and p[2] == "typing":
            return self.channel_routes.typing(int(p[1]))
        return error(404, 0, f"404: Not Found ({route})")

    async def attachment(self, request: web.Request) -> web.Response:
        """An upload, at the url its message gives (Discord's CDN)."""
        key = request.match_info["id"]
        found = self.store.attachments.get(int(key)) if key.isdigit() else None
        if found is None or found.filename != request.match_info["name"]:
            return web.Response(status=404, text="404: Not Found")
        kind = mimetypes.guess_type(found.filename)[0] or found.content_type or "application/octet-stream"
        return web.Response(body=found.data, content_type=kind)

    async def _overwrite(self, request: web.Request, route: str, guild: int | None) -> web.Response:
        body = await request.json()
        problems = payloads.check_commands(body)
        if self.store.fail_commands is not None:
            problems, self.store.fail_commands = problems + self.store.fail_commands, None
        if problems:
            return refuse(self.store.violations, route, problems)
        stored = self.store.register_commands(guild, body)
        return reply(stored)

    # --- faults ---------------------------------------------------------------------------------------------------

    def inject(self, fault: Fault) -> Fault:
        """Hit the requests matching the fault's route with it (the first active matching fault wins)."""
        self.store.faults.append(fault)
        return fault

    def fail(self, route: str, status: int = 500, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Answer the matching requests with a 5xx (Discord's body); nothing is done. discord.py retries 500, 502,
        504 and 524 by itself (5 tries, 1 + 2n seconds apart) and raises DiscordServerError at once on a 503."""
        if status < 500:
            raise ValueError("fail() is for Discord's 5xx; rate_limit() for 429, deny() and others for 4xx")
        return self.inject(Fault("error", route, status=status, times=times, for_seconds=for_seconds))

    def rate_limit(
        self,
        route: str,
        retry_after: float = 1.0,
        *,
        is_global: bool = False,
        times: int | None = 1,
        for_seconds: float | None = None,
    ) -> Fault:
        """Answer the matching requests 429 with ``retry_after`` (and ``global``); discord.py sleeps and retries."""
        return self.inject(
            Fault(
                "rate_limit", route, retry_after=retry_after, is_global=is_global, times=times, for_seconds=for_seconds
            )
        )

    def hang(self, route: str, delay: float, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Hold the matching requests ``delay`` seconds before doing anything (a slow Discord): a client that gives
        up first does not know whether they went through; they do, after the delay."""
        return self.inject(Fault("hang", route, delay=delay, times=times, for_seconds=for_seconds))

    def hang_after(self, route: str, delay: float, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Do the matching requests at once (the message is created, the event sent), but answer ``delay`` seconds
        later: a client timing out has lost an answer to something that happened."""
        return self.inject(Fault("hang_after", route, delay=delay, times=times, for_seconds=for_seconds))

    def lose_answer(self, route: str, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Do the matching requests, then close the connection without answering (the client sees it cut)."""
        return self.inject(Fault("lose_answer", route, times=times, for_seconds=for_seconds))

    def clear_faults(self) -> None:
        self.store.faults.clear()

    def drop_held(self) -> int:
        """Forget the requests a ``hang`` holds before doing them, as if lost on the way: they are never done (their
        connections are closed unanswered). For a client killed meanwhile, whose request never reached Discord. The
        number dropped."""
        held = list(self._held)
        for task in held:
            task.cancel()
        return len(held)

    def _fault(self, method: str, path: str) -> Fault | None:
        for fault in self.store.faults:
            if fault.active and fault.matches(method, path):
                fault.hits += 1
                return fault
        return None
