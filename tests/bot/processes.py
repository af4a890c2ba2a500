"""Several bot processes on one simulated Discord: each a ``ShardedBoardHost`` of its own (own connection pool,
own caches, own shards) attached to simcord's one backend, as several processes share Discord.

simcord runs one bot per environment (and one environment per event loop), so ``attach`` brings a second bot to
the environment the way simcord brings its own (a simulated REST client and a shard router on the backend, its
tasks tracked by the environment, so ``settle`` waits for them too). Gateway events then reach the bot running the
event's shard, as on Discord: an interaction in a guild reaches the process of the guild's shard, a DM shard 0's.
``steer`` sends the next interactions to chosen processes instead (as if, say, a DM and a channel click on the
same game reached two processes at once). This leans on simcord internals; keep every use of them here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from simcord import _dpy_internals
from simcord.backend import serializers
from simcord.gateway import FakeGateway, ShardRouter
from simcord.http import FakeHTTPClient

from bot.app import BoardHost

Feed = Callable[[str, Any], None]


class Processes:
    """The bots attached to one simcord environment, and where the next interactions go."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self._next: deque[BoardHost] = deque()
        self._chosen: dict[str, BoardHost | None] = {}
        self._feeds: dict[int, Feed] = {}  # by id(bot): the bot's own subscription on the backend
        self._gateways: dict[int, FakeGateway] = {}
        first = env.bot
        self._gateways[id(first)] = FakeGateway(env.backend, _dpy_internals.get_state(first))
        # the environment's own bot: route its feed through the steering too
        own = env._gateway_feed
        env.backend.subscribers.remove(own)
        self._subscribe(first, own)

    def steer(self, *bots: BoardHost) -> None:
        """The next interactions (one per bot given, in the order they are emitted) go to these bots."""
        self._next.extend(bots)

    def _target(self, payload: Any) -> BoardHost | None:
        key = str(payload.get("id"))
        if key not in self._chosen:
            self._chosen[key] = self._next.popleft() if self._next else None
        return self._chosen[key]

    def _subscribe(self, bot: BoardHost, feed: Feed) -> None:
        def steered(event: str, payload: Any) -> None:
            if event == "INTERACTION_CREATE":
                target = self._target(payload)
                if target is not None:
                    if target is bot:
                        with self.env._bot_scope():
                            self._gateways[id(bot)].feed(event, payload)
                    return
            feed(event, payload)

        self._feeds[id(bot)] = steered
        self.env.backend.subscribers.append(steered)

    async def attach(self, bot: BoardHost) -> None:
        """Start ``bot`` as another process on the environment's simulated Discord, running its configured shards."""
        env = self.env
        assert bot.config.shard_count is not None and bot.config.shard_ids is not None
        count, ids = bot.config.shard_count, tuple(bot.config.shard_ids)
        _dpy_internals.install_http(bot, FakeHTTPClient(env.backend, env._loop, message_content_access=True))
        _dpy_internals.set_guild_ready_timeout(bot, 0.0)
        state = _dpy_internals.get_state(bot)
        env._message_states.add(state)
        state.shard_count = count
        state.shard_ids = list(ids)
        router = ShardRouter(env.backend, state, bot.dispatch, count, ids)
        self._gateways[id(bot)] = FakeGateway(env.backend, state)

        def feed(event: str, payload: Any) -> None:
            with env._bot_scope():
                router.feed(event, payload)

        self._subscribe(bot, feed)
        first, env.bot = env.bot, bot
        try:
            env._capture_errors()  # an error in this bot fails the test like one in the environment's own
        finally:
            env.bot = first
        with env._bot_scope():
            await bot.login("simcord.fake.token")
            bot.shard_count = count
            _dpy_internals.install_shards(bot, router.shards)
            for shard_id in ids:
                router.identify(shard_id)
            for guild in list(env.backend.guilds.values()):
                if (guild.id >> 22) % count in ids:
                    router.feed("GUILD_CREATE", serializers.guild_create_payload(env.backend, guild))
        await env.settle()

    async def stop(self, bot: BoardHost) -> None:
        """The process ends: no more events reach it, its tasks end, its pool closes (its leases stay until they
        expire, as when a process is killed)."""
        feed = self._feeds.pop(id(bot))
        self.env.backend.subscribers.remove(feed)
        for cog in list(bot.cogs):
            await bot.remove_cog(cog)  # its sweeps and computer runners stop
        bot.renderer.close()
        pool = getattr(bot.db, "pool", None)
        if pool is not None:
            await bot.db.listener.close()  # type: ignore[attr-defined]  # its LISTEN connection ends with it
            pool.terminate()  # killed: no goodbye to the database
        else:
            await bot.db.close()
