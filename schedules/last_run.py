"""When each job last started, kept in Redis, so that a job runs when it is due across restarts and
leader changes.

APScheduler alone first runs an interval job one interval after the process starts: a scheduler
restarted (or handed the lease) more often than that would never run its hourly jobs. Running every
job at each start instead would rerun them on every restart of a crash-looping scheduler (and on
every test that starts one). So the leader records each job's start here, and whoever wins the lease
next schedules each job at its last start plus its interval, or now if that has passed.
"""

from __future__ import annotations

import functools
import logging
import time
from datetime import datetime, timedelta, timezone

import redis.asyncio as aioredis

log = logging.getLogger("herald.scheduler")

KEY = "herald:scheduler:last_run"  # hash: job id -> epoch seconds of the job's last start


def recorded(redis: aioredis.Redis, job_id: str, func):
    """``func``, recording each start first: at the start, so a job that crashes the process (or
    outlives it) is not started again by the next leader before its interval has passed."""

    @functools.wraps(func)  # keeps the name APScheduler logs ("compact_report_counters")
    async def run(*args, **kwargs):
        try:
            await redis.hset(KEY, job_id, repr(time.time()))
        except (aioredis.RedisError, OSError):
            # The run matters more than the record; at worst the next leader runs the job early.
            log.warning("could not record the start of job %s", job_id)
        started = time.monotonic()
        result = await func(*args, **kwargs)
        # DEBUG: a line per run of every job is what APScheduler's INFO lines were (kit/logs.py
        # quiets them); a failed run is APScheduler's ERROR line with its trace.
        log.debug("job %s finished in %.3fs", job_id, time.monotonic() - started)
        return result

    return run


async def next_run_times(redis: aioredis.Redis, jobs) -> dict[str, datetime]:
    """For each ``(job id, func, seconds)``: its last start plus its interval, or now when that has
    passed or it never ran; never more than one interval ahead (another host's clock may run fast)."""
    try:
        last = {field.decode(): float(value) for field, value in (await redis.hgetall(KEY)).items()}
    except (aioredis.RedisError, OSError, ValueError):
        log.warning("could not read the jobs' last runs; running every job now")
        last = {}
    # Read after Redis answered: a run time of "now" must not already be late when the scheduler resumes.
    now = datetime.now(timezone.utc)
    due = {}
    for job_id, _func, seconds in jobs:
        at = now
        if job_id in last:
            at = min(max(now, datetime.fromtimestamp(last[job_id] + seconds, timezone.utc)),
                     now + timedelta(seconds=seconds))
        due[job_id] = at
    return due
