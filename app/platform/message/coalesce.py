"""The way in to the one accept path: every send route (/v1 single and batch, the composer, the
internal send) hands its request's items here, and sends that arrive together are written together,
one statement (:func:`service.accept`) for many requests.

An accept statement costs PostgreSQL far more for being a statement than for its message: about
430 us of its CPU a statement, 60 us a message more (`python -m bench.statement --recipients 1`
against `--recipients 8`), and as much again on the platform's side to build, send and read it. So
the platform process writes the sends of one key (or account), channel and operation that wait at
the same moment in one statement, each request still getting its own outcomes (its blocklist
refusals, its claims, its quota, its ids) and its answer only after the commit, as before: what a
caller is told is true of the database either way, and the same as if it had been written alone.

The statements of one shape in flight at once are at most IN_FLIGHT. A send that finds a free
place goes at the next turn of the event loop with whatever else arrived in that turn; one that finds
none waits for the next statement to end and goes in the one after it, with everything that
waited. At a low rate every send is a statement of its own and waits for nothing; at a high rate
the statements grow instead of queueing at the database's pool. A statement carries at most
MAX_MESSAGES messages (a larger request goes alone), and never two requests with one idempotency
key (the later one waits for the next statement, where it replays the first). A statement that may
free a claimed key again (service.needs_transaction) runs in a transaction of its own.

Failure. A statement PostgreSQL refused rolled back: nothing of it was written. Refused for a value
(SQLSTATE classes 22 and 23), it is tried again one send at a time, so one send's bad value answers
that send's error, never its neighbours'; refused as a deadlock or a serialisation failure (class 40),
it is tried again whole, once. Any other failure (a timeout, the database going away, a connection
dropped mid-way, whose statement may have committed) is not tried again: every send of the statement
answers a 500 of its own, as a lone send would, and a client retries with its idempotency key.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from asyncpg import PostgresError
from prometheus_client import Histogram
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction

from app.platform.api_key.principal import Principal
from app.platform.message import service
from app.platform.message.service import Item, Outcome
from kit.metrics import MESSAGES_ACCEPTED

IN_FLIGHT = 4
MAX_MESSAGES = 200
# SQLSTATE classes of a value PostgreSQL would not store: data exceptions, integrity constraints.
VALUE_REFUSED = ("22", "23")


class StatementFailed(Exception):
    """A send's share of a failed statement of several sends (the statement's error is its cause)."""

# On /metrics: its _count is the statements, its _sum the sends they wrote (a retry one by one is
# a statement per send).
SENDS_PER_STATEMENT = Histogram(
    "herald_send_statement_sends", "Send requests written by one accept statement (app/platform/message/coalesce.py)",
    ["channel"], buckets=(1, 2, 4, 8, 16, 32, 64, 128))


@dataclass
class _Waiting:
    items: list[Item]
    done: asyncio.Future

    @property
    def keys(self) -> set[str]:
        return {item.idempotency_key for item in self.items if item.idempotency_key is not None}

    @property
    def messages(self) -> int:
        return sum(len(item.drafts) for item in self.items)


@dataclass
class _Shape:
    """The sends of one key (or account), channel and operation waiting to be written."""
    conn: BaseDBAsyncClient
    principal: Principal
    channel: str
    operation: str
    compare_bodies: bool
    waiting: list[_Waiting] = field(default_factory=list)
    in_flight: int = 0
    scheduled: bool = False


class SendCoalescer:
    def __init__(self) -> None:
        self._shapes: dict[tuple, _Shape] = {}

    async def accept(self, conn: BaseDBAsyncClient, principal: Principal, channel: str, operation: str,
                     items: list[Item], *, compare_bodies: bool) -> list[Outcome]:
        """The outcomes of one request's items (service.accept), written with whatever other
        requests of its shape wait with it."""
        if not items:
            return []
        key = (principal.key_pk, principal.tenant_pk, principal.mode, channel, operation, compare_bodies)
        shape = self._shapes.get(key)
        if shape is None:
            shape = self._shapes[key] = _Shape(conn, principal, channel, operation, compare_bodies)
        else:  # the newest view of the key and its account, and of the pool
            shape.conn, shape.principal = conn, principal
        done = asyncio.get_running_loop().create_future()
        shape.waiting.append(_Waiting(items, done))
        self._schedule(key, shape)
        return await done

    def _schedule(self, key: tuple, shape: _Shape) -> None:
        if shape.waiting and not shape.scheduled and shape.in_flight < IN_FLIGHT:
            shape.scheduled = True
            asyncio.get_running_loop().call_soon(self._start, key, shape)

    def _start(self, key: tuple, shape: _Shape) -> None:
        shape.scheduled = False
        batch = _take(shape)
        if not batch:  # only sends whose callers had gone
            self._forget_if_idle(key, shape)
            return
        shape.in_flight += 1
        task = asyncio.get_running_loop().create_task(self._write(shape, batch))
        task.add_done_callback(lambda _: self._ended(key, shape))

    def _ended(self, key: tuple, shape: _Shape) -> None:
        shape.in_flight -= 1
        if shape.waiting:
            self._schedule(key, shape)
        else:
            self._forget_if_idle(key, shape)

    def _forget_if_idle(self, key: tuple, shape: _Shape) -> None:
        if not shape.waiting and shape.in_flight == 0 and self._shapes.get(key) is shape:
            del self._shapes[key]

    async def _write(self, shape: _Shape, batch: list[_Waiting]) -> None:
        try:
            await self._write_batch(shape, batch)
        finally:  # stopped half-way (the server's shutdown): no caller waits forever
            for waiting in batch:
                if not waiting.done.done():
                    waiting.done.cancel()

    async def _write_batch(self, shape: _Shape, batch: list[_Waiting]) -> None:
        items = [item for waiting in batch for item in waiting.items]
        try:
            outcomes = await self._accept(shape, items, len(batch))
        except Exception as exception:  # noqa: BLE001 - answered below, per send
            sqlstate = _sqlstate(exception)
            if sqlstate[:2] == "40":  # a deadlock or serialisation failure: rolled back, tried again whole
                try:
                    outcomes = await self._accept(shape, items, len(batch))
                except Exception as again:  # noqa: BLE001
                    exception, sqlstate = again, _sqlstate(again)
                else:
                    _settle(batch, outcomes)
                    return
            if len(batch) > 1 and sqlstate[:2] in VALUE_REFUSED:
                await self._one_by_one(shape, batch)
                return
            for waiting in batch:
                _fail(waiting, exception, alone=len(batch) == 1)
            return
        _settle(batch, outcomes)

    async def _one_by_one(self, shape: _Shape, batch: list[_Waiting]) -> None:
        for waiting in batch:
            try:
                outcomes = await self._accept(shape, waiting.items)
            except Exception as exception:  # noqa: BLE001 - that send's own error
                _fail(waiting, exception, alone=True)
            else:
                _settle([waiting], outcomes)

    @staticmethod
    async def _accept(shape: _Shape, items: list[Item], requests: int = 1) -> list[Outcome]:
        SENDS_PER_STATEMENT.labels(shape.channel).observe(requests)
        if service.needs_transaction(shape.principal, items):  # it may free a claimed key: all or nothing
            async with in_transaction(shape.conn.connection_name) as conn:
                outcomes = await service.accept(conn, shape.principal, shape.channel, shape.operation, items,
                                                compare_bodies=shape.compare_bodies)
        else:
            outcomes = await service.accept(shape.conn, shape.principal, shape.channel, shape.operation, items,
                                            compare_bodies=shape.compare_bodies)
        # Counted once committed, and only what this statement wrote: not a replay's ids, not a refused item.
        written = sum(len(outcome.message_ids) for outcome in outcomes if not outcome.reused)
        if written:
            MESSAGES_ACCEPTED.labels(shape.channel).inc(written)
        return outcomes


def _take(shape: _Shape) -> list[_Waiting]:
    """The next statement's requests, oldest first: up to MAX_MESSAGES messages (or one larger
    request alone), no key in two of them."""
    batch: list[_Waiting] = []
    kept: list[_Waiting] = []
    keys: set[str] = set()
    messages = 0
    for waiting in shape.waiting:
        if waiting.done.done():  # its caller has gone (cancelled): nothing to write
            continue
        theirs, size = waiting.keys, waiting.messages
        if (batch and messages + size > MAX_MESSAGES) or not keys.isdisjoint(theirs):
            kept.append(waiting)
            continue
        batch.append(waiting)
        messages += size
        keys |= theirs
    shape.waiting = kept
    return batch


def _settle(batch: list[_Waiting], outcomes: list[Outcome]) -> None:
    """Each request its own outcomes, in the order its items were written."""
    start = 0
    for waiting in batch:
        end = start + len(waiting.items)
        if not waiting.done.done():
            waiting.done.set_result(outcomes[start:end])
        start = end


def _fail(waiting: _Waiting, exception: Exception, *, alone: bool) -> None:
    """The send answers ``exception``: its own when the statement was its alone, else a failure of
    its own caused by it (one exception raised in many requests would gather all their frames)."""
    if waiting.done.done():
        return
    if not alone:
        shared, exception = exception, StatementFailed("the statement writing this send with others failed")
        exception.__cause__ = shared
    waiting.done.set_exception(exception)


def _sqlstate(exception: BaseException) -> str:
    """The SQLSTATE of the PostgreSQL error behind ``exception`` (Tortoise wraps asyncpg's), or ""
    when PostgreSQL did not answer one (the statement's fate is then unknown)."""
    cause: BaseException | None = exception
    while cause is not None:
        if isinstance(cause, PostgresError):
            return cause.sqlstate or ""
        cause = cause.__cause__
    return ""
