"""The one back-off: how long a job waits before its next try.

Doubling from ``first`` seconds (attempt 1 waits ``first``), capped at ``ceiling``, with an optional
jitter (``0.1``: up to 10 % more, so retries of many jobs spread out). A server's Retry-After, when
there is one, wins: at least a second, never more than ``ceiling``.
"""

from __future__ import annotations

import random


def backoff(attempt: int, retry_after: float | None = None, *, first: float = 1.0, ceiling: float,
            jitter: float = 0.0) -> float:
    if retry_after is not None:
        return min(max(retry_after, 1.0), ceiling)
    delay = min(first * 2.0 ** max(attempt - 1, 0), ceiling)
    return delay * (1 + random.random() * jitter) if jitter else delay
