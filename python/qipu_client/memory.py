"""tune_malloc(): glibc malloc settings for a process that receives
megabyte-sized messages many times a second.

Each batch arrives as a new bytes object of about 1.4 MB (256 19x19 rows).
With glibc's defaults such blocks are mapped and unmapped, or the heap
top trimmed, again and again: every batch page-faults its memory in anew,
which costs a client as much CPU time in the kernel as all the rest. Fixed
thresholds keep the memory in the heap for the next batch (measured with
bench_pull.py: about 3x fewer page faults and 30% less CPU time). The
price: freed memory goes back to the system later (up to `trim_bytes`
stays with the process). Opt-in, once per process, before the first batch.
"""

import ctypes
import ctypes.util

# mallopt parameters (glibc's malloc.h).
_M_TRIM_THRESHOLD = -1
_M_TOP_PAD = -2
_M_MMAP_THRESHOLD = -3


def tune_malloc(mmap_threshold=256 << 20, trim_bytes=1 << 30,
                top_pad=64 << 20):
    """Sets glibc's mmap threshold, trim threshold and top pad (bytes).
    Returns False (and changes nothing) where glibc's mallopt is not
    available, True otherwise."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    ok = mallopt(_M_MMAP_THRESHOLD, min(mmap_threshold, 1 << 30))
    ok &= mallopt(_M_TRIM_THRESHOLD, min(trim_bytes, (1 << 31) - 1))
    ok &= mallopt(_M_TOP_PAD, min(top_pad, (1 << 31) - 1))
    return bool(ok)
