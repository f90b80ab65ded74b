"""Request logs: one row per request made with an account key, kept indefinitely.

The table ``request_logs`` is partitioned by month on ``created_at`` (PostgreSQL declarative
partitioning). Tortoise cannot create that, so the table, its indexes and the first
partitions are written in SQL in the migration (0003_request_logs); :class:`RequestLog` is
mapped onto it for reads. New months are added ahead of time by the scheduler job
``request_logs.partitions`` (schedules/platform/request_logs.py) and, should that job not have run, by
the writer (the stream consumer, tasks/streams/request_log.py) before it inserts (:func:`ensure_partitions`).

Ids are ``log_`` + 14 hex digits of the creation time in microseconds + 10 random hex
digits: they sort by time, and the detail lookup derives ``created_at`` from the id so it
touches one partition only.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable

from tortoise import fields
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.models import Model

TABLE = "request_logs"
ID_PREFIX = "log_"
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
# Months created ahead of the current one by the scheduler job.
MONTHS_AHEAD = 2


class RequestLog(Model):
    id = fields.CharField(primary_key=True, max_length=40)
    created_at = fields.DatetimeField()
    tenant_id = fields.BigIntField()
    api_key_id = fields.CharField(max_length=40)
    api_key_name = fields.CharField(max_length=200)
    mode = fields.CharField(max_length=4)
    method = fields.CharField(max_length=10)
    path = fields.TextField()
    route = fields.TextField(null=True)
    status = fields.SmallIntField()
    duration_ms = fields.FloatField()
    idempotency_key = fields.CharField(max_length=128, null=True)
    error_code = fields.CharField(max_length=64, null=True)
    message_ids: list[str] = fields.JSONField(default=list)
    request_id = fields.CharField(max_length=40)
    trace_id = fields.CharField(max_length=32)
    query = fields.JSONField(null=True)
    request_body = fields.TextField(null=True)
    response_body = fields.TextField(null=True)
    request_body_truncated = fields.BooleanField(default=False)
    response_body_truncated = fields.BooleanField(default=False)
    redaction_version = fields.SmallIntField()

    class Meta:
        table = TABLE
        app = "platform"


# --- ids -----------------------------------------------------------------------------------------

def micros_of(moment: datetime) -> int:
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


RANDOM_BYTES = 5  # after the creation time: an id's last 10 hex digits


def new_log_id(created_at: datetime, random_hex: str | None = None) -> str:
    """The id of a row created at ``created_at``; ``random_hex`` (2 x RANDOM_BYTES hex digits from
    the system's CSPRNG) lets a batch take its randomness in one read."""
    return f"{ID_PREFIX}{micros_of(created_at):014x}{random_hex or secrets.token_hex(RANDOM_BYTES)}"


def created_at_of(log_id: str) -> datetime | None:
    """The creation time a log id carries, or None when the id is not one of ours."""
    if not log_id.startswith(ID_PREFIX) or len(log_id) != len(ID_PREFIX) + 24:
        return None
    digits = log_id[len(ID_PREFIX):]
    if any(c not in "0123456789abcdef" for c in digits):
        return None
    return _EPOCH + timedelta(microseconds=int(digits[:14], 16))


# --- partitions ----------------------------------------------------------------------------------

def month_start(moment: datetime) -> datetime:
    return datetime(moment.year, moment.month, 1, tzinfo=timezone.utc)


def next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=timezone.utc)


def partition_name(start: datetime) -> str:
    return f"{TABLE}_{start.year:04d}_{start.month:02d}"


def months_from(moment: datetime, ahead: int = MONTHS_AHEAD) -> list[datetime]:
    months = [month_start(moment)]
    for _ in range(ahead):
        months.append(next_month(months[-1]))
    return months


async def ensure_partitions(connection: BaseDBAsyncClient, months: Iterable[datetime]) -> list[str]:
    """Create the monthly partitions that do not exist yet; returns the names created.

    Existence is checked first (``to_regclass``) so a present partition costs no lock on the
    parent; two processes creating the same month at once is harmless (the loser's error is
    ignored once the partition is seen to exist).
    """
    created = []
    for start in sorted({month_start(m) for m in months}):
        name = partition_name(start)
        rows = await connection.execute_query_dict("SELECT to_regclass($1) IS NOT NULL AS present", [name])
        if rows[0]["present"]:
            continue
        end = next_month(start)
        try:
            await connection.execute_script(
                f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF {TABLE} "
                f"FOR VALUES FROM ('{start.isoformat()}') TO ('{end.isoformat()}')"
            )
        except Exception:  # noqa: BLE001 - a concurrent creator won the race
            rows = await connection.execute_query_dict("SELECT to_regclass($1) IS NOT NULL AS present", [name])
            if not rows[0]["present"]:
                raise
            continue
        created.append(name)
    return created


# --- writing -------------------------------------------------------------------------------------

COLUMNS = ("id", "created_at", "tenant_id", "api_key_id", "api_key_name", "mode", "method", "path", "route",
           "status", "duration_ms", "idempotency_key", "error_code", "message_ids", "request_id", "trace_id",
           "query", "request_body", "response_body", "request_body_truncated", "response_body_truncated",
           "redaction_version")
_TYPES = ("text", "timestamptz", "bigint", "text", "text", "text", "text", "text", "text",
          "smallint", "float8", "text", "text", "text", "text", "text",
          "text", "text", "text", "bool", "bool", "smallint")
_JSONB = {"message_ids", "query"}

INSERT_SQL = (
    f"INSERT INTO {TABLE} ({', '.join(COLUMNS)}) SELECT "
    + ", ".join(f"c.{name}::jsonb" if name in _JSONB else f"c.{name}" for name in COLUMNS)
    + " FROM unnest("
    + ", ".join(f"${i}::{kind}[]" for i, kind in enumerate(_TYPES, start=1))
    + f") AS c({', '.join(COLUMNS)})"
    # A row's id is made from its stream entry (models/platform/request_log/rows.py): an entry
    # written again after a consumer died before acknowledging it is the same row, kept once.
    + " ON CONFLICT (created_at, id) DO NOTHING"
)


async def insert_many(connection: BaseDBAsyncClient, rows: list[dict]) -> None:
    """One multi-row INSERT (unnest of one array per column) for a batch of rows.

    ``message_ids`` and ``query`` are given as JSON text.
    """
    if not rows:
        return
    await connection.execute_query(INSERT_SQL, [[storable(name, row[name]) for row in rows] for name in COLUMNS])


def storable(column: str, value: Any) -> Any:
    """PostgreSQL text and jsonb hold no NUL character (nor jsonb its ``\\u0000`` escape): a request
    may carry one (a ``%00`` in the query, a body), so it is kept as U+FFFD rather than refused."""
    if isinstance(value, str):
        value = value.replace("\x00", "\ufffd")
        if column in _JSONB:
            value = value.replace("\\u0000", "\\ufffd")
    return value
