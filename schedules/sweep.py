"""The sweep of the one lease pipeline (models/lease.py): hand the rows that are due again, and those
whose lease ran out (a worker died), back to the workers.

One statement in the system's database finds the rows (``FOR UPDATE SKIP LOCKED``: two schedulers,
a leader change mid-run, never hand a row over twice), stamps them handed over and writes their
outbox rows; the system's relay publishes them. The actor's claim makes any duplicate harmless;
a row handed over and not taken is handed over again only once its queue has had the time to bring its
job (schedules/queue_lag.py). The same shape serves the simpler tables that are only handed over again after a while (CRM
alerts, retention policies, owed erasures): a :class:`Leased` without due time or lease.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from tortoise import connections

from kit.actors import ActorRef
from models.lease import Leased
from models.outbox import insert_sql
from schedules.jobs import job
from schedules.queue_lag import queue_lags

log = logging.getLogger("herald.sweep")


@dataclass(frozen=True)
class Sweep:
    """Every ``every_seconds`` (the job ``job_id``), hand the due rows of ``leased`` to ``actor``,
    again after ``reenqueue_after`` when still due (the broker lost the job)."""

    job_id: str
    leased: Leased
    actor: ActorRef
    reenqueue_after: timedelta
    every_seconds: float
    order: str = "id"
    limit: int = 1000

    async def run(self, now: datetime | None = None, only: list[int] | None = None, behind: float = 0.0) -> int:
        """Hand every due row over (through the system's outbox); how many were. ``now`` moves
        the clock (None: the database's), ``only`` limits the sweep to these ids; ``behind``: how
        many seconds the actor's queue is behind (schedules/queue_lag.py), waited on top of
        ``reenqueue_after`` before a row handed over and not taken counts as lost."""
        sql = self.leased.sweep_sql(f"{insert_sql(self.actor, 'handed')} RETURNING id", order=self.order)
        rows = await connections.get(self.actor.system).execute_query_dict(
            sql, [now, self.reenqueue_after.total_seconds() + behind, self.limit, only])
        if rows:
            log.info("%s: %d row(s) handed to %s", self.leased.table, len(rows), self.actor.name)
        return len(rows)

    async def tick(self, runtime) -> None:
        """One run of the job: wake the system's relay when anything was handed over."""
        queue = self.actor.queue.value
        if await self.run(behind=(await queue_lags(runtime.redis, [queue]))[queue]):
            runtime.wakeup(self.actor.system)

    def register(self) -> Sweep:
        """Add the periodic job (schedules/jobs.py)."""
        job(self.job_id, every_seconds=self.every_seconds)(self.tick)
        return self
