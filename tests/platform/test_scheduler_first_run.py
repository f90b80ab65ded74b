"""When the scheduler wins the lease, each job runs when it is due by its last start (kept in Redis,
whichever process made it), then at its interval: an hourly job is not left waiting an hour by a
scheduler that restarts (or takes over) more often, nor rerun at every such start; and the time spent
paused as a follower costs no run and logs no misfire."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from datetime import datetime, timedelta, timezone

import pytest
import redis
from tortoise import connections

from schedules.last_run import KEY as LAST_RUN_KEY
from schedules.lease import KEY as LEASE_KEY
from tests.fixtures.harness import Process, Services
from tests.fixtures.polling import until

# The scheduler's own line for a finished run of the hourly job that folds closed hours (at DEBUG:
# schedules/last_run.py; APScheduler's per-run INFO lines are quieted, kit/logs.py).
COMPACTED = re.compile(r"job report_counters\.compact finished in [0-9.]+s")


@pytest.fixture
def scheduler_redis(services):
    """A Redis logical database of this test's own, so no other scheduler of the run holds its lease."""
    url = Services._redis_database(services.redis_url)
    yield url
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


async def shards(tenant_id: int) -> list[dict]:
    return await connections.get("platform").execute_query_dict(
        "SELECT shard, count FROM report_counters WHERE tenant_id = $1 ORDER BY shard", [tenant_id])


async def closed_hour_in_shards(label: str) -> int:
    """A tenant with shards of a closed hour: only the hourly `report_counters.compact` job folds them
    into shard 0."""
    from app.platform.tenant.service import create_tenant

    tenant = await create_tenant(label, f"scheduler-first-run-{secrets.token_hex(3)}")
    closed = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0) - timedelta(hours=3)
    for shard, count in ((3, 2), (9, 5)):
        await connections.get("platform").execute_query(
            "INSERT INTO report_counters (tenant_id, mode, hour, channel, status, template, shard, count) "
            "VALUES ($1, 'live', $2, 'email', 'sent', 'first-run', $3, $4)",
            [tenant.id, closed, shard, count])
    return tenant.id


def following_scheduler(services, scheduler_redis, client, tmp_path) -> Process:
    """A scheduler started while another process leads: it waits, paused (see `followed`)."""
    client.set(LEASE_KEY, "another-scheduler", px=120_000)
    return Process("scheduler", ["scheduler"], {**services.env, "REDIS_URL": scheduler_redis,
                                                "LOG_LEVEL": "DEBUG"}, tmp_path / "logs")


async def followed(scheduler: Process) -> None:
    await until(lambda: asyncio.sleep(0, "waiting for the lease" in scheduler.log.read_text()), 30,
                "the scheduler up and following")


@pytest.mark.parametrize("ran_seconds_ago", [None, 3600 + 120], ids=["never-ran", "ran-over-an-hour-ago"])
async def test_an_hourly_job_that_is_due_runs_as_soon_as_the_lease_is_won(services, scheduler_redis, tmp_path,
                                                                          ran_seconds_ago):
    tenant_id = await closed_hour_in_shards("Scheduler first run")
    client = redis.Redis.from_url(scheduler_redis)
    if ran_seconds_ago is not None:  # another leader ran it, longer ago than its interval
        client.hset(LAST_RUN_KEY, "report_counters.compact", repr(time.time() - ran_seconds_ago))
    scheduler = following_scheduler(services, scheduler_redis, client, tmp_path)
    try:
        await followed(scheduler)
        # Paused for more than an election round, and well past APScheduler's misfire grace (1 s).
        await asyncio.sleep(7)
        log = scheduler.log.read_text()
        assert scheduler.process.poll() is None, log[-3000:]
        assert "this scheduler is the leader" not in log and COMPACTED.search(log) is None, log[-3000:]
        assert len(await shards(tenant_id)) == 2

        won = time.time()
        client.delete(LEASE_KEY)  # the other leader goes away; this one takes over within a round (5 s)
        folded = await until(_folded(tenant_id), 20, "the closed hour folded by the hourly job, soon after "
                                                     "the lease was won")
        assert folded == [{"shard": 0, "count": 7}]
        # The job goes on to fold closed days after the hours are visible; its end is logged then.
        await until(lambda: asyncio.sleep(0, COMPACTED.search(scheduler.log.read_text())), 10,
                    "the hourly job finished")
        log = scheduler.log.read_text()
        assert "this scheduler is the leader" in log
        # Quieted even at DEBUG: APScheduler's per-run lines (its warnings below still show).
        assert "executed successfully" not in log and "Running job" not in log, log[-3000:]
        assert "was missed by" not in log, log[-3000:]
        assert "raised an exception" not in log, log[-3000:]
        # The run is recorded for whoever leads next.
        assert float(client.hget(LAST_RUN_KEY, "report_counters.compact")) >= won
    finally:
        scheduler.stop()
        client.close()


async def test_an_hourly_job_that_ran_recently_waits_for_its_interval(services, scheduler_redis, tmp_path):
    tenant_id = await closed_hour_in_shards("Scheduler recent run")
    client = redis.Redis.from_url(scheduler_redis)
    ran = repr(time.time() - 60)  # another leader (or this scheduler before a restart) ran it a minute ago
    client.hset(LAST_RUN_KEY, "report_counters.compact", ran)
    scheduler = following_scheduler(services, scheduler_redis, client, tmp_path)
    try:
        await followed(scheduler)
        won = time.time()
        client.delete(LEASE_KEY)
        await until(lambda: asyncio.sleep(0, "this scheduler is the leader" in scheduler.log.read_text()), 20,
                    "the lease won")
        # The jobs do run: an hourly job that never ran here starts at once and is recorded ...
        await until(lambda: asyncio.sleep(0, float(client.hget(LAST_RUN_KEY, "idempotency.prune") or 0) >= won),
                    10, "idempotency.prune started and recorded")
        # ... but not the one that ran a minute ago: its shards stay as they are (every job being run
        # at start, they were folded within a second or two).
        await asyncio.sleep(8)
        log = scheduler.log.read_text()
        assert scheduler.process.poll() is None, log[-3000:]
        assert len(await shards(tenant_id)) == 2
        assert COMPACTED.search(log) is None, log[-3000:]
        assert client.hget(LAST_RUN_KEY, "report_counters.compact").decode() == ran
        assert "was missed by" not in log and "raised an exception" not in log, log[-3000:]
    finally:
        scheduler.stop()
        client.close()


def _folded(tenant_id: int):
    async def check() -> list[dict] | None:
        rows = await shards(tenant_id)
        return rows if [row["shard"] for row in rows] == [0] else None

    return check
