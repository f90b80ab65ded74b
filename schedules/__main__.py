"""``python -m schedules``: the scheduler process (every periodic job, and one outbox relay per
system that has an outbox).

Safe to start twice: a Redis lease elects one leader; a follower keeps its jobs paused and
takes over within one lease period when the leader goes away.
"""

from __future__ import annotations

import asyncio
import logging
import signal

import redis.asyncio as aioredis
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from dramatiq.brokers.redis import RedisBroker
from tortoise import Tortoise

from kit.errors import exit_on_config_error
from kit import logs
from kit.observability import init_sentry
from kit.settings import get_settings
from models import tortoise_config
from kit.actors import BROKER_NAMESPACE, systems_with_outbox
from models.outbox import wake_channel
from schedules import housekeeping  # noqa: F401  (every module imported here registers its jobs)
from schedules.platform import alerts, blocklist, delivery, domains, request_logs  # noqa: F401
from schedules.platform import webhooks, whatsapp_templates  # noqa: F401
from schedules.identity import mail  # noqa: F401
from schedules.crm import alerts as crm_alerts, deliveries, erasure, journeys, retention  # noqa: F401
from schedules.pages import domains as pages_domains, experiments  # noqa: F401
from schedules.mail import received  # noqa: F401
from schedules.jobs import JOBS
from schedules.last_run import next_run_times, recorded
from schedules.lease import RedisLease
from schedules.relay import OutboxRelay

log = logging.getLogger("herald.scheduler")

ELECTION_SECONDS = 5.0


class Runtime:
    """What jobs share: settings and the Redis client (the ORM is initialised globally)."""

    def __init__(self, settings, redis: aioredis.Redis):
        self.settings = settings
        self.redis = redis

    def wakeup(self, system: str = "platform") -> None:
        """Nudge the relays of ``system`` (this process's and any other) to publish new rows now."""
        asyncio.get_running_loop().create_task(self._publish_wakeup(system))

    async def _publish_wakeup(self, system: str) -> None:
        try:
            await self.redis.publish(wake_channel(system), b"1")
        except (aioredis.RedisError, OSError):
            pass  # the relay's sweep finds the rows anyway


async def run() -> None:
    with exit_on_config_error():
        settings = get_settings()
        redis_url = settings.require_redis_url()
        config = tortoise_config(settings, sorted({"platform", "identity", *systems_with_outbox()}), pool_max=5)
    logs.setup(settings, role="scheduler")
    init_sentry(settings)

    await Tortoise.init(config=config, _enable_global_fallback=True)
    # A bounded pool (the lease and the jobs, one run of each at a time): past it a job waits, up to 5 s.
    redis = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
        redis_url, max_connections=32, timeout=5, socket_timeout=5, socket_connect_timeout=5))
    runtime = Runtime(settings, redis)
    lease = RedisLease(redis, ttl_ms=int(ELECTION_SECONDS * 3 * 1000))

    scheduler = AsyncIOScheduler(timezone="UTC", job_defaults={"coalesce": True, "max_instances": 1})
    for job_id, func, seconds in JOBS:
        scheduler.add_job(recorded(redis, job_id, func), "interval", seconds=seconds, id=job_id,
                          args=[runtime])
    scheduler.start(paused=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)

    # The relays run in every scheduler process, leader or not: SKIP LOCKED makes that safe,
    # and a second scheduler then also means a second relay of each system.
    broker = RedisBroker(url=redis_url, namespace=BROKER_NAMESPACE, middleware=[])
    relayed = settings.relay_systems or systems_with_outbox()
    relay_tasks = [asyncio.create_task(OutboxRelay(broker, redis, system).run(stop), name=f"outbox-relay-{system}")
                   for system in relayed]

    leading = False
    log.info("scheduler started with %d jobs; waiting for the lease", len(JOBS))
    try:
        while not stop.is_set():
            now_leading = await lease.acquire_or_renew()
            if now_leading and not leading:
                log.info("this scheduler is the leader; jobs resumed")
                # Each job runs when it is due by its last start, whoever made it (schedules/last_run.py),
                # not one interval after this process started: a scheduler restarted, or handed the
                # lease, more often than an hourly job's interval still runs it once an hour, and no
                # more. Setting the run times while paused also keeps the time spent as a follower from
                # turning into a run dropped as a misfire ("was missed by").
                for job_id, at in (await next_run_times(redis, JOBS)).items():
                    scheduler.modify_job(job_id, next_run_time=at)
                scheduler.resume()
            elif leading and not now_leading:
                log.warning("lost the scheduler lease; jobs paused")
                scheduler.pause()
            leading = now_leading
            try:
                await asyncio.wait_for(stop.wait(), ELECTION_SECONDS)
            except asyncio.TimeoutError:
                pass
    finally:
        await asyncio.gather(*relay_tasks)
        broker.close()
        scheduler.shutdown(wait=False)
        await lease.release()
        await redis.aclose()
        await Tortoise.close_connections()
        log.info("scheduler stopped")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
