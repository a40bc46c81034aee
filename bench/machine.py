"""What the benchmarks print about the machine they ran on, so that two machines' figures
compare: a core that runs Python twice as slowly halves every figure here."""

from __future__ import annotations

import os
import platform
import timeit


def python_speed() -> float:
    """Microseconds for ``sum(range(1000))``, best of five: how fast one core runs Python."""
    loops = 20_000
    return min(timeit.Timer("sum(range(1000))").repeat(5, loops)) / loops * 1e6


def describe() -> str:
    return (
        f"this machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"sum(range(1000)) in {python_speed():.1f} us"
    )
