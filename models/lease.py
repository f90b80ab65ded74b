"""The one lease pipeline: the row transitions every leased piece of work shares, as SQL.

Messages, webhook deliveries, CRM deliveries and identity e-mails are each a table of rows that a
worker takes one at a time (a claim with a lease), tries, and then finishes, or hands back for a
later attempt (``next_attempt_at``), or gives up on. A scheduler job sweeps the rows that are due
again and those whose lease ran out (a worker died) back to the workers, through the outbox. This
module writes that once; each table is a :class:`Leased` (which columns and states it has) with
its own :class:`Retries` (its schedule and when it gives up). The actor's side is tasks/lease.py,
the sweep job's is schedules/sweep.py.

A row is, for the pipeline, in one of three places:

- waiting (``waiting``): for its next attempt, due at ``next_attempt_at`` (NULL: at once);
- held by a worker: ``lease_until`` in the future, and in the ``taken`` state when the table has one
  (messages ``sending``, CRM deliveries ``delivering``); a table without one (webhook deliveries,
  identity e-mails) stays waiting while leased, the lease alone keeping other workers off;
- anything else: finished (sent, failed, succeeded...), left alone.

Every statement takes the clock as a parameter that may be NULL (then the database's ``now()``), so
tests can move time and production uses one clock. The sweep stamps ``mark`` (``enqueued_at``)
when it hands a row over, and hands it over again only when it is due again (``mark`` older than
``next_attempt_at`` or than the lease that ran out) or REENQUEUE_AFTER later (the broker lost it).
"""

from __future__ import annotations

from dataclasses import dataclass

from kit.backoff import backoff

# A job may arrive a little before the time it was delayed to (clocks, rounding): still due.
EARLY = "interval '1 second'"


async def rows(connection, sql: str, args: list) -> list[dict]:
    """Run ``sql`` on a Tortoise client (a pooled connection per statement) or on an asyncpg
    connection held by the caller (several statements, one pool checkout)."""
    if hasattr(connection, "execute_query_dict"):
        return await connection.execute_query_dict(sql, args)
    return [dict(row) for row in await connection.fetch(sql, *args)]


def clock(parameter: str) -> str:
    """The time of a statement: the caller's (``parameter``) or, when NULL, the database's."""
    return f"COALESCE({parameter}::timestamptz, now())"


@dataclass(frozen=True)
class Retries:
    """When a failed attempt is tried again: after a fixed ``schedule`` of delays (attempt n failed:
    wait ``schedule[n-1]``; after the last, give up), or after a doubling back-off
    (kit/backoff.py: ``first`` seconds, at most ``ceiling``, ``jitter``, a server's Retry-After
    honoured) until ``max_attempts`` (None: never give up)."""

    max_attempts: int | None = None
    schedule: tuple[float, ...] = ()
    first: float = 1.0
    ceiling: float = 3600.0
    jitter: float = 0.0

    @classmethod
    def fixed(cls, schedule: tuple[float, ...]) -> Retries:
        return cls(max_attempts=len(schedule) + 1, schedule=schedule)

    def delay(self, attempts: int, retry_after: float | None = None) -> float | None:
        """Seconds until the next attempt after ``attempts`` made (the last one failed); None: give up."""
        if self.max_attempts is not None and attempts >= self.max_attempts:
            return None
        if self.schedule:
            return self.schedule[max(attempts, 1) - 1]
        return backoff(attempts, retry_after, first=self.first, ceiling=self.ceiling, jitter=self.jitter)


@dataclass(frozen=True)
class Leased:
    """A table of leased work and the names of its columns and states (SQL fragments)."""

    table: str
    waiting: str                   # predicate: waiting for an attempt
    taken: str | None = None       # predicate: held by a worker (None: the lease alone says it)
    take: str = ""                 # what else a claim sets (", status = 'sending'"), the clock as {now}
    count_at_claim: bool = False   # whether a claim counts the attempt (else the outcome does)
    due: str | None = "next_attempt_at"
    lease: str | None = "lease_until"
    mark: str = "enqueued_at"      # stamped by the sweep when it hands the row over
    # The sweep takes a waiting row only REENQUEUE_AFTER past its due time (the actor's own retries
    # come first; the sweep is the backstop), not as soon as it is due.
    sweep_late: bool = False
    # Extra sweep condition (the webhook endpoint's breaker, for instance), with the clock as {now}.
    sweepable: str = "true"

    def _held(self) -> str:
        return self.taken or f"{self.lease} IS NOT NULL"

    def _lease_free(self, now: str) -> str:
        if self.taken is not None or not self.lease:
            return ""
        return f" AND ({self.lease} IS NULL OR {self.lease} < {now})"

    def _due_by(self, moment: str) -> str:
        return f" AND COALESCE({self.due}, '-infinity') <= {moment}" if self.due else ""

    # --- the actor's side -----------------------------------------------------------------------

    def claim_sql(self, returning: str) -> str:
        """Take row ``$1`` for an attempt with a lease of ``$3`` seconds at clock ``$2``: a waiting
        row once due, or a held one whose lease ran out (its worker died). Nothing when another
        worker holds it, when it is not due, or when it is finished: a duplicate job does nothing."""
        now = clock("$2")
        counted = ", attempts = attempts + 1" if self.count_at_claim else ""
        expired = f" OR ({self.taken} AND {self.lease} < {now})" if self.taken else ""
        take = self.take.format(now=now)
        return (f"UPDATE {self.table} SET {self.lease} = {now} + make_interval(secs => $3){counted}{take} "
                f"WHERE id = $1 AND (({self.waiting}{self._due_by(f'{now} + {EARLY}')}{self._lease_free(now)})"
                f"{expired}) RETURNING {returning}")

    def renew_sql(self) -> str:
        """Extend the lease of row ``$1`` by ``$2`` seconds, only while attempt ``$3`` holds it: once
        the sweep handed the row on (or the attempt ended), a late renewal changes nothing."""
        return (f"UPDATE {self.table} SET {self.lease} = now() + make_interval(secs => $2) "
                f"WHERE id = $1 AND {self._held()} AND attempts = $3")

    def release_sql(self, sets: str = "", due: str = "$2::timestamptz") -> str:
        """Hand held row ``$1`` back to waiting, due at ``due`` (by default the time ``$2``; for
        instance ``now() + make_interval(secs => $2)``), setting ``sets`` too (more parameters
        from ``$3``)."""
        back = f", {sets}" if sets else ""
        return f"UPDATE {self.table} SET {self.lease} = NULL, {self.due} = {due}{back} WHERE id = $1 AND {self._held()}"

    # --- the sweep's side -------------------------------------------------------------------------

    def found_sql(self, order: str = "id", also: str = "true") -> str:
        """The rows to hand to the workers (again), locked: ``$1`` the clock, ``$2`` REENQUEUE_AFTER
        in seconds, ``$3`` how many at most, ``$4`` only these ids (NULL: any); ``also`` a further
        condition of the caller's (the clock as {now})."""
        now = clock("$1")
        stale = f"{now} - make_interval(secs => $2)"
        not_handed = f"{self.mark} IS NULL OR {self.mark} < {stale}"
        if self.due:
            not_handed += f" OR {self.mark} < {self.due}"
        waiting = (f"{self.waiting}{self._due_by(stale if self.sweep_late else now)}{self._lease_free(now)} "
                   f"AND ({not_handed})")
        expired = ""
        if self.taken:
            expired = (f" OR ({self.taken} AND {self.lease} < {now} AND ({self.mark} IS NULL OR "
                       f"{self.mark} < {self.lease} OR {self.mark} < {stale}))")
        extra = f"({self.sweepable.format(now=now)}) AND ({also.format(now=now)})"
        return (f"SELECT id FROM {self.table} WHERE (({waiting}){expired}) AND {extra} "
                f"AND ($4::bigint[] IS NULL OR id = ANY($4::bigint[])) "
                f"ORDER BY {order} LIMIT $3 FOR UPDATE SKIP LOCKED")

    def sweep_sql(self, jobs: str, *, order: str = "id", also: str = "true", sets: str = "", where: str = "",
                  returning: str = "", more: str = "") -> str:
        """One statement: find the rows (:meth:`found_sql` with ``also``, CTE ``found``), stamp them handed over
        (CTE ``handed``, also setting ``sets``, only those matching ``where``), then ``more`` CTEs
        (", name AS (...)") and ``jobs``: the outbox insert(s) from ``handed`` (models/outbox.py:
        insert_sql), which ends the statement."""
        return (f"WITH found AS ({self.found_sql(order, also)}), handed AS (UPDATE {self.table} t SET "
                f"{self.mark} = {clock('$1')}{', ' + sets if sets else ''} FROM found WHERE t.id = found.id"
                f"{' AND ' + where if where else ''} RETURNING t.id{', ' + returning if returning else ''}){more}\n"
                f"{jobs}")
