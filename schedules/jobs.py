"""The periodic jobs of Herald. A job finds what is due and enqueues actors; it never does the work.

Each entry: (job id, coroutine function taking the :class:`schedules.runtime.Runtime`, seconds between runs).
Issues add their jobs here (outbox relay sweep, reconciler, webhook retries, DNS re-checks, ...).
"""

from __future__ import annotations

from typing import Awaitable, Callable

Job = tuple[str, Callable[..., Awaitable[None]], float]

JOBS: list[Job] = []


def job(job_id: str, every_seconds: float):
    """Register a periodic job."""

    def register(func):
        JOBS.append((job_id, func, every_seconds))
        return func

    return register
