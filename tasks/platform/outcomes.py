"""Delivery outcomes written together (issue 46): the attempts of one worker process that end at
the same moment record their outcomes (models/platform/message.py: finish_many) in one statement.

Each outcome was a statement of its own: its commit waited for PostgreSQL's WAL flush, and with a
worker's deliveries in flight those flushes were where a delivery spent its time (sampled during
`python -m bench.smtp_e2e`: most of the platform's busy backends waited on ``WALWrite`` or
``WalSync`` in the outcome's or the claim's statement). Here, as the accept path does
(app/platform/message/coalesce.py): an outcome that finds a free place goes at the next turn of the
event loop with whatever else arrived in that turn; one that finds none (IN_FLIGHT statements
already running) waits for the next to end and goes with everything that waited. At a low rate
every outcome is a statement of its own and waits for nothing. Each caller learns whether its
message was finished only after the commit, as before, so nothing an attempt does next (or a
retry's decision) runs ahead of what the database holds.

Failure. A statement PostgreSQL refused rolled back: nothing of it was written. Refused for a value
(SQLSTATE classes 22 and 23) or as a deadlock or serialisation failure (class 40), its outcomes are
written again one by one, so each attempt meets its own error; any other failure (the database
going away, a connection dropped mid-way, whose statement may have committed) is each caller's
error, as it would have been alone: the attempt fails and its message, still ``sending`` if
nothing was written, is handed back by the reconciler once its lease runs out (the crash window
of docs/messages.md, now as wide as the outcomes waiting together).
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from asyncpg import PostgresError
from prometheus_client import Histogram

from models.outbox import request_id
from models.platform.message import MessageStatus, finish_many

IN_FLIGHT = 2
MAX_OUTCOMES = 200
# SQLSTATE classes after which the outcomes are written again one by one: a value PostgreSQL would
# not store (data exceptions, integrity constraints), a deadlock or a serialisation failure.
ONE_BY_ONE = ("22", "23", "40")


# On the worker's /metrics: its _count is the statements, its _sum the outcomes they wrote.
OUTCOMES_PER_STATEMENT = Histogram(
    "herald_delivery_outcomes_per_statement", "Delivery outcomes written by one statement (tasks/platform/outcomes.py)",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128))


class StatementFailed(Exception):
    """An outcome's share of a failed statement of several outcomes (its cause is the statement's error)."""


@dataclass
class _Loop:
    """The outcomes waiting at one event loop (a worker process has one; tests make many)."""
    connection: object = None
    waiting: list[tuple[tuple, asyncio.Future]] = field(default_factory=list)
    in_flight: int = 0
    scheduled: bool = False


_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Loop]" = weakref.WeakKeyDictionary()


async def finish(connection, message_pk: int, status: MessageStatus, *, event: str | None = None,
                 provider: str | None = None, provider_message_id: str | None = None,
                 failure_reason: str | None = None, detail: dict | None = None) -> bool:
    """models/platform/message.py ``finish``, written with the outcomes that wait with it: True when
    the message was ``sending`` and is now ``status``."""
    loop = asyncio.get_running_loop()
    state = _loops.get(loop)
    if state is None:
        state = _loops[loop] = _Loop()
    state.connection = connection
    done = loop.create_future()
    # The request id of the attempt's job, read now: the statement runs in whichever caller's turn.
    outcome = (message_pk, status, event, provider, provider_message_id, failure_reason, detail, request_id())
    state.waiting.append((outcome, done))
    _schedule(loop, state)
    return await done


def _schedule(loop: asyncio.AbstractEventLoop, state: _Loop) -> None:
    if state.waiting and not state.scheduled and state.in_flight < IN_FLIGHT:
        state.scheduled = True
        loop.call_soon(_start, loop, state)


def _start(loop: asyncio.AbstractEventLoop, state: _Loop) -> None:
    state.scheduled = False
    batch = [(outcome, done) for outcome, done in state.waiting[:MAX_OUTCOMES] if not done.done()]
    del state.waiting[:MAX_OUTCOMES]
    if not batch:
        _schedule(loop, state)
        return
    state.in_flight += 1
    task = loop.create_task(_write(state.connection, batch))
    task.add_done_callback(lambda _: _ended(loop, state))


def _ended(loop: asyncio.AbstractEventLoop, state: _Loop) -> None:
    state.in_flight -= 1
    _schedule(loop, state)


async def _write(connection, batch: list[tuple[tuple, asyncio.Future]]) -> None:
    try:
        try:
            OUTCOMES_PER_STATEMENT.observe(len(batch))
            finished = await finish_many(connection, [outcome for outcome, _ in batch])
        except Exception as error:  # noqa: BLE001 - answered below, per outcome
            if len(batch) > 1 and _sqlstate(error)[:2] in ONE_BY_ONE:
                await _one_by_one(connection, batch)
                return
            for _, done in batch:
                _fail(done, error, alone=len(batch) == 1)
            return
        for (outcome, done) in batch:
            if not done.done():
                done.set_result(outcome[0] in finished)
    finally:  # stopped half-way (the worker's shutdown): no attempt waits forever
        for _, done in batch:
            if not done.done():
                done.cancel()


async def _one_by_one(connection, batch: list[tuple[tuple, asyncio.Future]]) -> None:
    for outcome, done in batch:
        try:
            OUTCOMES_PER_STATEMENT.observe(1)
            finished = await finish_many(connection, [outcome])
        except Exception as error:  # noqa: BLE001 - that outcome's own error
            _fail(done, error, alone=True)
        else:
            if not done.done():
                done.set_result(outcome[0] in finished)


def _fail(done: asyncio.Future, error: Exception, *, alone: bool) -> None:
    """The outcome's own error when the statement was its alone, else one of its own caused by it
    (one exception raised in many attempts would gather all their frames)."""
    if done.done():
        return
    if not alone:
        shared, error = error, StatementFailed("the statement writing this outcome with others failed")
        error.__cause__ = shared
    done.set_exception(error)


def _sqlstate(error: BaseException) -> str:
    """The SQLSTATE of the PostgreSQL error behind ``error`` (Tortoise wraps asyncpg's), or ""."""
    cause: BaseException | None = error
    while cause is not None:
        if isinstance(cause, PostgresError):
            return cause.sqlstate or ""
        cause = cause.__cause__
    return ""
