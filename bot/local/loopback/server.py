"""A loopback Discord: gateway v10 (JSON) and REST v10, enough for the unmodified discord.py client.

Strict where Discord is strict (see ``limits``): a request breaking a limit is answered 400 with Discord's error
shape and recorded in ``violations``, which ``check()`` turns into a test failure. Discord's failures can be
injected while a client runs (``faults``, ``sessions``, ``permissions``; the package's docstring lists them), and
every REST request is recorded in ``exchanges``.

``FakeDiscord`` is the store (``store``: what it holds and has seen) with the parts that serve it: the gateway
(``connections``), the REST routes (``routes``, ``channel_routes``, ``interaction_routes``) and the people using it
(``acting``). What a test or the table page does is offered here, by the part that does it.
"""

from __future__ import annotations

from aiohttp import web

from bot.local.loopback.acting import People
from bot.local.loopback.channel_routes import ChannelRoutes
from bot.local.loopback.connections import Gateway
from bot.local.loopback.interaction_routes import InteractionRoutes
from bot.local.loopback.routes import Routes
from bot.local.loopback.store import Store


class FakeDiscord(Store):
    """Start with ``await fake.start()``; point the bot at ``rest_url`` and ``gateway_url``."""

    def __init__(
        self,
        token: str = "fake-token",
        *,
        guild_id: int = 900_000_000_000_000_001,
        first_id: int = 1_100_000_000_000_000_000,
        channel_id: int | None = None,
        channel_routes: type[ChannelRoutes] = ChannelRoutes,
    ) -> None:
        """``channel_routes``: a subclass watches what the bot posts and edits in the channels."""
        super().__init__(token, guild_id=guild_id, first_id=first_id, channel_id=channel_id)
        self.gateway = Gateway(self)
        self.channel_routes = channel_routes(self, self.gateway)
        self.interaction_routes = InteractionRoutes(self, self.channel_routes)
        self.routes = Routes(self, self.channel_routes, self.interaction_routes)
        self.people = People(self, self.gateway, self.channel_routes)
        self._runner: web.AppRunner | None = None
        # the gateway: events, and its faults
        self.dispatch = self.gateway.dispatch
        self.drop_gateway = self.gateway.drop_gateway
        self.reopen_gateway = self.gateway.reopen_gateway
        self.invalidate_session = self.gateway.invalidate_session
        self.request_reconnect = self.gateway.request_reconnect
        self.request_heartbeat = self.gateway.request_heartbeat
        # REST faults
        self.inject = self.routes.inject
        self.fail = self.routes.fail
        self.rate_limit = self.routes.rate_limit
        self.hang = self.routes.hang
        self.hang_after = self.routes.hang_after
        self.lose_answer = self.routes.lose_answer
        self.clear_faults = self.routes.clear_faults
        self.drop_held = self.routes.drop_held
        # channels and messages: their faults
        self.deny = self.channel_routes.deny
        self.allow = self.channel_routes.allow
        self.delete_channel = self.channel_routes.delete_channel
        self.delete_message = self.channel_routes.delete_message
        # people
        self.slash = self.people.slash
        self.autocomplete = self.people.autocomplete
        self.click = self.people.click
        self.select = self.people.select
        self.submit = self.people.submit
        self.say = self.people.say

    async def start(self, port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.serve)
        app.router.add_route("*", "/api/v10/{path:.*}", self.routes.serve)
        app.router.add_get("/attachments/{id}/{name}", self.routes.attachment)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        # aiohttp keeps the listening socket private (and typed as maybe absent): the port the system picked
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self.gateway.reopen_gateway()
        for task in list(self.tasks):
            task.cancel()
        await self.gateway.close()
        if self._runner:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
