"""Keep freed memory in the process for the next image instead of handing it back to the system.

Every turn allocates and frees a few large buffers: the board canvas (5-6 MB for a late Carcassonne board), its raw
pixels and scanlines for the PNG, the PNG itself on its way to Discord. glibc serves blocks of 128 kB and more with
``mmap`` and returns them with ``munmap`` when freed, so the next turn touches fresh pages again: about 2,000 page
faults per image, which measured 40% of a drawing process's CPU (``bench/README.md``). Raising the mmap threshold
and the trim threshold keeps such blocks on the heap, where the next image reuses them. The cost is that a process
keeps its peak working set (tens of MB) instead of shrinking after each image.

Only glibc has ``mallopt``; elsewhere (musl, macOS, Windows) this does nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
from typing import Final

log = logging.getLogger("boardhost.memory")

# glibc's mallopt parameters (malloc.h)
M_TRIM_THRESHOLD: Final = -1
M_MMAP_THRESHOLD: Final = -3
# The largest mmap threshold glibc accepts on 64-bit systems (HEAP_MAX_SIZE / 2): every image buffer stays below it.
MMAP_THRESHOLD: Final = 32 << 20
TRIM_THRESHOLD: Final = 128 << 20


def keep_freed_memory() -> bool:
    """Ask glibc to keep freed large blocks for reuse; True if it agreed (False on other C libraries)."""
    libc: ctypes.CDLL | None = None
    with contextlib.suppress(OSError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:
        return False
    # Setting the thresholds also switches off glibc's dynamic adjustment of them.
    agreed = bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    if not agreed:
        log.info("mallopt refused the thresholds; freed memory goes back to the system")
    return agreed
