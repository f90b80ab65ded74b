"""The actor's side of the one lease pipeline (models/lease.py): claim a row, keep its lease while
the attempt runs, and after a failure either try again later (with the table's :class:`Retries`)
or give up.

Every leased actor (messages, webhook deliveries, CRM deliveries, identity e-mails) goes through
:func:`claim` and :func:`holding`, asks its table's ``Retries.delay`` what follows a failure (None:
give up) and, when the retry is Dramatiq's, raises :func:`retry_in`; what it does with the row,
and how it records the outcome (events, attempts, breakers), stays its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import AsyncIterator

import dramatiq

from models.lease import Leased, rows

log = logging.getLogger("herald.lease")


async def claim(connection, leased: Leased, pk: int, lease_seconds: float, returning: str, *,
                now: datetime | None = None, sql: str | None = None) -> dict | None:
    """Take row ``pk`` for an attempt (models/lease.py: Leased.claim_sql, or ``sql`` built on it):
    its row, or None when there is nothing to do (held elsewhere, not due, finished)."""
    found = await rows(connection, sql or leased.claim_sql(returning), [pk, now, float(lease_seconds)])
    return found[0] if found else None


@contextlib.asynccontextmanager
async def holding(connection, leased: Leased, pk: int, attempt: int,
                  lease_seconds: float) -> AsyncIterator[None]:
    """Renew the lease every third of it while the block runs: a slow attempt keeps its row, and a
    worker killed mid-attempt leaves it to the sweep within ``lease_seconds``. ``attempt`` is the
    row's attempts as claimed: a renewal after the row moved on changes nothing."""
    task = asyncio.create_task(_renew(connection, leased, pk, attempt, lease_seconds))
    try:
        yield
    finally:
        task.cancel()


async def _renew(connection, leased: Leased, pk: int, attempt: int, lease_seconds: float) -> None:
    sql = leased.renew_sql()
    while True:
        await asyncio.sleep(lease_seconds / 3)
        try:
            await connection.execute_query(sql, [pk, float(lease_seconds), attempt])
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a missed renewal only risks a duplicate attempt
            log.warning("could not renew the lease of %s %s: %r", leased.table, pk, error)


def retry_in(delay: float, reason: str) -> dramatiq.Retry:
    """The exception that has Dramatiq run the job again after ``delay`` seconds (the row is
    already due then: the sweep is the backstop when the retry is lost)."""
    return dramatiq.Retry(reason[:200], delay=int(delay * 1000))
