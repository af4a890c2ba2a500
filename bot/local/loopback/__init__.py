"""A loopback Discord: gateway v10 and REST v10, enough for the unmodified discord.py client, strict where Discord is.

``python -m bot try`` plays on it (``bot.local.tryout``, with the table page of ``bot.local.table`` as the people's
client), and the tests run the real bot as a process against it (``tests/process``, ``tests/browser``).

Discord's faults, injected from the test while the bot runs (``fake`` is the ``FakeDiscord`` the test started)
--------------------------------------------------------------------------------------------------------------

REST: a route pattern is ``"POST /channels/*/messages"`` (method optional; ``*`` or ``{name}`` is one path segment,
``**`` the rest; literal ids work: ``f"/channels/{cid}/messages"``). Each call returns the ``Fault``; it hits the next
``times`` matching requests (default 1; None: no count) and/or for ``for_seconds``; ``fault.hits``,
``fault.cancel()``, ``fake.clear_faults()``.

- ``fake.fail(route, 500)``: 500/502/503/504 with Discord's body ``{"message": "500: Internal Server Error", "code":
  0}``; nothing is done. discord.py retries 500, 502, 504 (5 tries, sleeping 1, 3, 5, 7 s) and raises
  ``DiscordServerError`` at once on a 503.
- ``fake.rate_limit(route, retry_after=1.0, is_global=False)``: 429 with ``retry_after``, ``global``, ``Via`` and
  the ``X-RateLimit-*`` headers; discord.py sleeps ``retry_after`` and retries (5 tries). The per-channel message
  limit (5 in 5 s) is always on.
- ``fake.hang(route, delay)``: nothing happens for ``delay`` s, then the request goes through and is answered, even
  if the client gave up meanwhile (a slow Discord; discord.py waits up to aiohttp's default 5 minutes).
- ``fake.hang_after(route, delay)``: the request goes through at once (message created, event sent), the answer
  comes ``delay`` s later: "done, but the answer was slow".
- ``fake.lose_answer(route)``: the request goes through, then the connection is closed without an answer
  (discord.py raises ``aiohttp.ServerDisconnectedError``).
- ``fake.drop_held()``: the requests a ``hang`` holds are never done (as if lost on the way): for a client killed
  meanwhile whose request never reached Discord.

Nonces: ``POST /channels/{id}/messages`` with ``nonce`` (25 characters at most) and ``enforce_nonce: true`` answers
200 with the bot's message created with that nonce within ``fake.nonce_window`` seconds (default 180) instead of
creating another; 404 10008 if that message was deleted. discord.py's ``channel.send(nonce=...)`` sets both. So a
retry after ``hang_after`` or ``lose_answer`` gets the message created the first time.

Channels, messages, people:

- ``await fake.deny(channel_id, "send_messages", ...)`` / ``await fake.allow(channel_id[, names])``: 403 50013
  "Missing Permissions" for what needs them (``send_messages``, ``embed_links``, ``attach_files``,
  ``read_message_history``); without ``view_channel`` 403 50001 "Missing Access" for everything in the channel. A
  CHANNEL_UPDATE carries a member overwrite for the bot, so ``channel.permissions_for(guild.me)`` agrees, and so do
  the interactions' ``app_permissions``.
- ``fake.close_dms(user_id)`` / ``fake.open_dms(user_id)`` (or ``add_user(..., dms_closed=True)``): opening the DM
  channel works, sending in it gets 403 50007.
- ``await fake.delete_channel(channel_id)``: CHANNEL_DELETE, then 404 10003 Unknown Channel for anything in it.
- ``await fake.delete_message(message_or_id)``: MESSAGE_DELETE, then 404 10008 Unknown Message (edits, fetches).

Gateway (sessions are kept as Discord keeps them: numbered dispatches, replayed on RESUME):

- ``await fake.drop_gateway(code=4000, for_seconds=0.0)``: close every connection (``code=None``: cut it without a
  close frame); the client RESUMEs and gets every dispatch it missed, then RESUMED. After 4007 or 4009 the session is
  over (its RESUME gets op 9). ``for_seconds`` keeps the gateway down (None: until ``fake.reopen_gateway()``): a
  client connecting meanwhile waits for its HELLO, events meanwhile wait for its RESUME.
- ``await fake.invalidate_session(resumable=False)``: op 9; the sessions are forgotten, the client identifies again
  (discord.py waits 5 s before it does) and the events meanwhile are lost.
- ``await fake.request_reconnect()`` (op 7: the client resumes), ``await fake.request_heartbeat()`` (op 1).
- Heartbeats: HELLO says 41250 ms (``fake.heartbeat_interval``); each HEARTBEAT gets one HEARTBEAT_ACK after a
  realistic round trip (``fake.heartbeat_round_trip``, 50 ms: an instant one makes discord.py log "Can't keep up").

What happened, for assertions
-----------------------------

- ``fake.messages_in(channel_id, deleted=False)``: the channel's messages; each ``message.versions`` is its history
  (as created, then after each edit; each with ``at``, when, and ``pings``, whom its content pings by the
  ``allowed_mentions`` sent, read by Discord's rules: ``mentions.py``); ``message.pings`` (whom the message pinged when
  it was created), ``message.nonce``, ``message.deleted``. An ``allowed_mentions`` Discord refuses is a violation.
- ``fake.exchanges`` / ``fake.exchanges_for("POST /channels/*/messages")``: every REST request with its ``status``,
  Discord error ``code``, injected ``fault``, ``nonce``, ``message_id``, ``deduplicated`` (answered with an earlier
  message) and ``delivered`` (False: the answer was lost, or the client had gone).
- ``fake.identified``, ``fake.resumed``, ``fake.resumes`` (each with the events replayed), ``fake.sessions``,
  ``fake.heartbeats``, ``fake.heartbeat_acks``; ``fake.violations`` / ``fake.check()`` for requests Discord would
  refuse as invalid.
- ``await fake.wait_for(predicate)``: re-checked after every request and every 50 ms.

People and what they see (the table page uses these)
-----------------------------------------------------

- ``fake.slash``, ``fake.autocomplete``, ``fake.click``, ``fake.select``, ``fake.submit``: a person's interaction, as
  their Discord client sends it (``locale``: their client's language); ``await fake.say(user_id, channel_id, text)``:
  a person's message in a channel.
- ``fake.message(id)``: a message wherever it is (a channel, a DM, an ephemeral answer); ``fake.attachments``: every
  upload by id, also served at its url; ``fake.changes`` counts what changed, ``await fake.next_change(seen,
  timeout)`` waits for the next, ``await fake.notify()`` wakes the waiters for a change made outside the fake.
"""

from bot.local.loopback import payloads
from bot.local.loopback.faults import Exchange, Fault
from bot.local.loopback.server import FakeDiscord
from bot.local.loopback.stored import Attachment, Interaction, Message, Version, Violation

__all__ = [
    "Attachment",
    "Exchange",
    "FakeDiscord",
    "Fault",
    "Interaction",
    "Message",
    "Version",
    "Violation",
    "payloads",
]
