"""The benches read another process's CPU time to the nanosecond; a reading that counts nothing would report an idle
bot as free (it did, on a kernel without ``/proc/PID/task/TID/schedstat``)."""

from __future__ import annotations

import subprocess
import sys
import time

from bench.bot_bench import time_on_cpu

SPIN = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\ntime.sleep(30)"


def test_another_process_s_cpu_time_is_read_and_stands_still_while_it_sleeps() -> None:
    child = subprocess.Popen([sys.executable, "-c", SPIN])
    try:
        deadline = time.monotonic() + 20
        while time_on_cpu([child.pid]) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
        spent = time_on_cpu([child.pid])
        assert 0.3 <= spent < 5, spent
        time.sleep(0.2)  # asleep now: its clock stands still
        assert time_on_cpu([child.pid]) - spent < 0.05
    finally:
        child.kill()
        child.wait()


def test_a_process_gone_counts_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert time_on_cpu([child.pid]) == 0.0
