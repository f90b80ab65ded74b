"""The transactional outbox, the same in every system's database: a row per job, written in the same
transaction as what it is about.

Each system that hands work to actors has its own ``outbox`` table (``models/<system>/outbox.py``
declares it from :class:`OutboxBase`) and its own relay in the scheduler (schedules/relay.py),
which claims unpublished rows with FOR UPDATE SKIP LOCKED, hands them to the broker and marks
them published. Never a "greater than the last id sent" cursor: a row whose transaction commits
late would be skipped.

Jobs are written only through :func:`enqueue` (one row) or :func:`insert_sql` (rows produced by
a statement, for the hot paths that write messages and their jobs in one round trip), with an
:class:`kit.actors.ActorRef` from the registry: the actor and queue names are spelled there.

A row carries the id of the HTTP request that caused it (``request_id``, null when none did: a
schedule's sweep), which the relay hands on as the Dramatiq message's ``request_id`` option, so the
actor's log lines carry it (tasks/middleware.py: JobLogContext); and what that actor writes to an
outbox in turn carries it again. :func:`enqueue` and :func:`enqueue_many` take it from the logging
context (kit/logs.py) of the handler or job that writes them; a statement built with
:func:`insert_sql` is given it as an SQL expression (a parameter, or a column of its source, when
one statement writes the jobs of several requests: app/platform/message/statement.py).
"""

from __future__ import annotations

import json

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

from kit import logs
from kit.actors import ActorRef

# The longest request id a row keeps (ours, app/http/request_id.py, are 28 characters): the
# request log's column has the same bound.
REQUEST_ID_MAX = 40


class OutboxBase(Model):
    id = fields.BigIntField(primary_key=True)
    actor = fields.CharField(max_length=64)
    queue = fields.CharField(max_length=32)
    args: list = fields.JSONField()
    # Delay before the job may run (ms): a retry scheduled through the outbox.
    delay_ms = fields.IntField(default=0)
    # The HTTP request that caused the job (X-Request-Id), handed on to its Dramatiq message.
    request_id = fields.CharField(max_length=REQUEST_ID_MAX, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    published_at = fields.DatetimeField(null=True)

    class Meta:
        abstract = True


def wake_channel(system: str) -> str:
    """The Redis channel on which a system's HTTP processes nudge its relay after a commit."""
    return f"herald:outbox:{system}:wake"


def request_id() -> str | None:
    """The request id the jobs written here carry: the current handler's, or the one the current
    job was caused by (None outside both: a schedule)."""
    value = logs.current("request_id")
    return value[:REQUEST_ID_MAX] if isinstance(value, str) else None


async def enqueue(conn: BaseDBAsyncClient, actor: ActorRef, *args: int | str, delay_ms: int = 0) -> None:
    """One job for ``actor`` with ``args`` (ids), in the caller's transaction ``conn``."""
    await conn.execute_query(
        "INSERT INTO outbox (actor, queue, args, delay_ms, request_id, created_at) "
        "VALUES ($1, $2, $3::jsonb, $4, $5, now())",
        [actor.name, actor.queue.value, json.dumps(list(args)), delay_ms, request_id()])


async def enqueue_many(conn: BaseDBAsyncClient, actor: ActorRef, ids: list[int], delay_ms: int = 0) -> None:
    """One job per id for ``actor``, in one statement."""
    if ids:
        await conn.execute_query(
            "INSERT INTO outbox (actor, queue, args, delay_ms, request_id, created_at) "
            "SELECT $1, $2, jsonb_build_array(i), $4, $5, now() FROM unnest($3::bigint[]) AS i",
            [actor.name, actor.queue.value, ids, delay_ms, request_id()])


def insert_sql(actor: ActorRef, source: str, arg: str = "id", delay_ms: str = "0", request: str = "NULL") -> str:
    """``INSERT INTO outbox ... SELECT ... FROM <source>``: one job per row of ``source`` (a CTE or
    table name), its single argument the expression ``arg``, for use inside a larger statement;
    ``request`` the SQL expression of its request id (a ``$n::text`` parameter given
    :func:`request_id`, a column of ``source``; NULL: a schedule's, caused by no request)."""
    return (f"INSERT INTO outbox (actor, queue, args, delay_ms, request_id, created_at) "
            f"SELECT '{actor.name}', '{actor.queue.value}', jsonb_build_array({arg}), {delay_ms}, {request}, now() "
            f"FROM {source}")


async def backlog(conn: BaseDBAsyncClient, cap: int) -> tuple[int, float]:
    """The rows not relayed yet (counted up to ``cap``, so a huge backlog costs no more than a
    bounded scan) and the age in seconds of the oldest (0 when none waits): one statement, the
    same walk in id order as the relay's claim (schedules/relay.py)."""
    [row] = await conn.execute_query_dict(
        "SELECT count(*)::bigint AS n, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS lag "
        "FROM (SELECT created_at FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1) AS waiting", [cap])
    return int(row["n"]), max(0.0, float(row["lag"]))
