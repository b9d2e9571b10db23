"""The memory of this process, for the benchmarks that measure it (``postmortem.py --memory``, ``winnable.py
--memory``): its resident set now, and the most it reached while a block ran.

    with Peak() as peak:
        ...                        # a search
    print(peak)                    # "RSS 62 MiB before, peak 410 MiB, 75 MiB after"

The peak is the kernel's own high-water mark (``VmHWM`` in ``/proc/self/status``), set back to the resident
set at the start of the block by writing 5 to ``/proc/self/clear_refs`` (Linux 4.0 and later): no thread
samples it, so the measure itself allocates nothing while the search runs (a sampling thread's few strings,
kept alive here and there, would keep the allocator's blocks from being given back, and inflate "after").
Where it cannot be set back, the peak is the most since the process began (``ru_maxrss``), and says so.
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path

STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")
MIB = 1024 * 1024


def _status(field: str) -> int | None:
    """A field of ``/proc/self/status`` in bytes (``None`` where there is none)."""
    try:
        for line in STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def high_water() -> int:
    """The most this process has held since it began (or since :func:`reset_high_water`), in bytes."""
    hwm = _status("VmHWM")
    if hwm is not None:
        return hwm
    most = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return most if sys.platform == "darwin" else most * 1024


def rss() -> int:
    """The resident set of this process now, in bytes (its peak so far where the system says no more)."""
    now = _status("VmRSS")
    return now if now is not None else high_water()


def reset_high_water() -> bool:
    """Set the high-water mark back to the resident set now; whether it could be."""
    try:
        CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


class Peak:
    """The resident set before a block, the most it reached during it, and after it."""

    def __init__(self) -> None:
        self.before = self.peak = self.after = 0
        self.since_start = False   # the peak is the process's, since it began: it could not be set back

    def __enter__(self) -> Peak:
        self.before = rss()
        self.since_start = not reset_high_water()
        return self

    def __exit__(self, *exc: object) -> None:
        self.after = rss()
        self.peak = max(high_water(), self.after)

    def __str__(self) -> str:
        since = " (since the process began)" if self.since_start else ""
        return (f"RSS {self.before / MIB:.0f} MiB before, peak {self.peak / MIB:.0f} MiB{since},"
                f" {self.after / MIB:.0f} MiB after")
