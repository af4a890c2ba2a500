"""The bot's memory habits: freed image-sized buffers stay in the process for the next image (glibc only), and
what the bot made at start is left out of the garbage collector's full collections."""

from __future__ import annotations

import gc
import platform
import subprocess
import sys

import pytest

from bot.app import GC_THRESHOLDS
from bot.core import memory
from tests.bot.conftest import World

# A drawing round's buffers: a canvas, its raw bytes and the PNG scanlines, a few MB each and of varying sizes
# from image to image. Prints the page faults of ten rounds after a first one.
ROUNDS = """
import resource, sys
if sys.argv[1] == "keep":
    from bot.core.memory import keep_freed_memory
    assert keep_freed_memory()
def round_trip(n):
    canvas = bytearray((4 + n % 3) << 20)
    raw = bytes(canvas)
    lines = bytearray(len(raw) + (n % 5) * 100_000)
    del canvas, raw, lines
round_trip(0)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for n in range(10):
    round_trip(n)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt is glibc's")


def faults(mode: str) -> int:
    done = subprocess.run([sys.executable, "-c", ROUNDS, mode], capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


@glibc
def test_a_freed_image_buffer_is_reused_without_touching_new_pages() -> None:
    returned = faults("default")  # glibc unmaps such blocks when they are freed: each round faults them in again
    kept = faults("keep")
    assert kept * 5 < returned, (kept, returned)


@glibc
def test_glibc_agrees_to_the_thresholds() -> None:
    assert memory.keep_freed_memory()


async def test_the_bot_keeps_what_it_made_at_start_out_of_the_collectors_way(world: World) -> None:
    assert world.bot.is_ready()
    assert gc.get_freeze_count() > 10_000, "modules, discord.py and the engine's tables are frozen"
    assert gc.get_threshold() == GC_THRESHOLDS
