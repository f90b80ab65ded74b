"""The request-log writer: captured requests gather in the process and are written in batches.

Nothing here runs on the request path. Every FLUSH_SECONDS (sooner when BATCH_ROWS are
waiting, or WAKE_BYTES of bodies) the flush task turns captured requests into rows (key
resolution, redaction, error code, message ids) and writes them with one multi-row INSERT per
BATCH_ROWS rows. The rows are built in a process of its own (:mod:`.builder`), so the platform's
event loop spends its CPU on requests; when that process cannot answer, rows of small requests are
built on the event loop a slice at a time and rows with a long body on a thread of their own. Each
body is read only as far as it is kept (:mod:`.body`), so no request body can hold up the API.
A graceful stop flushes what is left. If the database refuses, rows stay queued and are
retried; a batch refused FAILURES_BEFORE_DROP times in a row is written one row at a time and
only the rows still refused are dropped (and logged), so one bad row neither blocks the log nor
takes its neighbours with it. At most MAX_PENDING records and MAX_PENDING_BYTES of bodies wait;
beyond either, new records are dropped and counted in the log (the API keeps answering either
way).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from tortoise import connections

from app.platform.request_log.body import redact_body
from app.platform.request_log.builder import Builder
from app.platform.request_log.capture import Captured
from app.platform.request_log.redaction import REDACTION_VERSION, redact_query, scrub
from app.platform.message.schemas import IDEMPOTENCY_KEY
from models.platform.api_key import ApiKey
from models.platform.request_log import RANDOM_BYTES, ensure_partitions, insert_many, month_start, new_log_id

log = logging.getLogger("herald.request_log")

FLUSH_SECONDS = 0.5
BATCH_ROWS = 500
MAX_PENDING = 20_000
MAX_PENDING_BYTES = 64 * 1024 * 1024
WAKE_BYTES = 8 * 1024 * 1024
FAILURES_BEFORE_DROP = 5
# What a record or row holds besides its bodies, roughly: counted so that many small records
# weigh something too.
OVERHEAD_BYTES = 1024
# Top-level fields of a request body that the row keeps as they were sent.
BODY_FIELDS = frozenset({"IdempotencyKey"})
# A response of ours that carries an error code or message ids is far smaller than this; a
# larger one is not parsed for them.
RESPONSE_FACTS_BYTES = 1024 * 1024
# Records whose bodies together stay within this (plus OVERHEAD_BYTES) are built on the event loop,
# SLICE_ROWS per turn of the loop; larger ones on the building thread (see _build_rows).
SMALL_RECORD_BYTES = 4 * 1024 + OVERHEAD_BYTES
SLICE_ROWS = 10


class RequestLogBuffer:
    def __init__(self) -> None:
        self.pending: list[Captured] = []
        self.ready: list[dict[str, Any]] = []
        self.dropped = 0
        self.held_bytes = 0  # bodies of the pending records and ready rows, plus their overhead
        self._executor: ThreadPoolExecutor | None = None
        self._builder = Builder()
        self._failures = 0
        self._warned_at = 0.0
        self._months: set = set()
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    # --- request path --------------------------------------------------------------------------

    def add(self, record: Captured) -> None:
        size = record_size(record)
        if len(self.pending) + len(self.ready) >= MAX_PENDING or self.held_bytes + size > MAX_PENDING_BYTES:
            self.dropped += 1
            if time.monotonic() - self._warned_at > 10:
                self._warned_at = time.monotonic()
                log.warning("request-log buffer full; %d records dropped so far", self.dropped)
            return
        self.pending.append(record)
        self.held_bytes += size
        if len(self.pending) >= BATCH_ROWS or self.held_bytes >= WAKE_BYTES:
            self._wake.set()

    # --- flush task ----------------------------------------------------------------------------

    async def run(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), FLUSH_SECONDS)
            except asyncio.TimeoutError:
                pass
            self._wake.clear()
            await self.flush()

    async def flush(self) -> None:
        async with self._lock:
            await self._build()
            await self._write()

    async def close(self) -> None:
        """Lets the builder process and the building thread go (after the last flush)."""
        await self._builder.close()
        if self._executor is not None:
            self._executor.shutdown(wait=False)
            self._executor = None

    async def _build(self) -> None:
        pending, self.pending = self.pending, []
        if not pending:
            return
        try:
            keys = await self._resolve({record.key_digest for record in pending if record.key_digest})
            rows = await self._build_rows(pending, keys)
        except asyncio.CancelledError:
            self.pending = pending + self.pending  # stopped mid-build: the last flush builds them
            raise
        except Exception:  # noqa: BLE001 - the database is away; keep the records for the next round
            log.exception("request-log key resolution failed; will retry")
            self.pending = pending + self.pending
            return
        self.held_bytes += sum(map(row_size, rows)) - sum(map(record_size, pending))
        self.ready.extend(rows)

    async def _build_rows(self, pending: list[Captured], keys: dict[str, tuple[int, str, str, str]]
                          ) -> list[dict[str, Any]]:
        try:
            return await self._builder.build(pending, keys)
        except Exception:  # noqa: BLE001 - the builder died or cannot start: built here, nothing lost
            log.exception("request-log builder process failed; building %d rows in this process", len(pending))
        return await self._build_here(pending, keys)

    async def _build_here(self, pending: list[Captured], keys: dict[str, tuple[int, str, str, str]]
                          ) -> list[dict[str, Any]]:
        """Small records are built on the event loop, SLICE_ROWS at a time with a turn of the loop
        between slices (a thread would contend for the GIL with the loop on every system call the
        loop makes: each one could hand the thread the GIL for a whole switch interval, 5 ms);
        records past SMALL_RECORD_BYTES go to the building thread, where the redaction of
        a long (or hostile) body, bounded but tens of milliseconds, never holds up an answer."""
        small = [record for record in pending if record_size(record) <= SMALL_RECORD_BYTES]
        large = [record for record in pending if record_size(record) > SMALL_RECORD_BYTES] if len(small) < len(
            pending) else []
        rows: list[dict[str, Any]] = []
        for start in range(0, len(small), SLICE_ROWS):
            if start:
                await asyncio.sleep(0)
            rows.extend(build_rows(small[start:start + SLICE_ROWS], keys))
        if large:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="request-log")
            rows.extend(await asyncio.get_running_loop().run_in_executor(self._executor, build_rows, large, keys))
        return rows

    async def _write(self) -> None:
        connection = connections.get("platform")
        while self.ready:
            batch = self.ready[:BATCH_ROWS]
            try:
                months = {month_start(row["created_at"]) for row in batch} - self._months
                if months:
                    await ensure_partitions(connection, months)
                    self._months |= months
                await insert_many(connection, batch)
            except Exception:  # noqa: BLE001
                self._failures += 1
                if self._failures >= FAILURES_BEFORE_DROP:
                    # Refused again and again: one row at a time, so only a row the database will
                    # not take is lost, never its neighbours.
                    dropped = await self._write_each(connection, batch)
                    log.exception("request-log batch of %d rows refused %d times; written row by row, %d "
                                  "dropped", len(batch), self._failures, dropped)
                    self._written(batch)
                    self._failures = 0
                    continue
                log.exception("request-log write failed; will retry")
                return
            self._failures = 0
            self._written(batch)

    @staticmethod
    async def _write_each(connection, batch: list[dict[str, Any]]) -> int:
        dropped = 0
        for row in batch:
            try:
                await insert_many(connection, [row])
            except Exception:  # noqa: BLE001 - that row alone is lost, and counted
                dropped += 1
        return dropped

    def _written(self, batch: list[dict[str, Any]]) -> None:
        del self.ready[:len(batch)]
        self.held_bytes -= sum(map(row_size, batch))

    @staticmethod
    async def _resolve(digests: set[str]) -> dict[str, tuple[int, str, str, str]]:
        """Key hash -> (tenant pk, key id, key name, mode), for keys the gate did not accept."""
        if not digests:
            return {}
        keys = await ApiKey.filter(key_hash__in=list(digests)).only("key_hash", "tenant_id", "public_id", "name",
                                                                    "mode")
        return {key.key_hash: (key.tenant_id, key.public_id, key.name, key.mode) for key in keys}


def record_size(record: Captured) -> int:
    return len(record.request_body or b"") + len(record.response_body or b"") + OVERHEAD_BYTES


def row_size(row: dict[str, Any]) -> int:
    return len(row["request_body"] or "") + len(row["response_body"] or "") + OVERHEAD_BYTES


def build_rows(records: list[Captured], keys: dict[str, tuple[int, str, str, str]]) -> list[dict[str, Any]]:
    """The rows of captured requests (run on the building thread: plain CPU work, no I/O)."""
    rows = []
    # One read of the system's CSPRNG for the batch's ids, not one system call a row.
    randomness = os.urandom(RANDOM_BYTES * len(records)).hex()
    width = 2 * RANDOM_BYTES
    for index, record in enumerate(records):
        try:
            row = build_row(record, keys, randomness[index * width:(index + 1) * width])
        except Exception:  # noqa: BLE001 - one odd request must not stop the log
            log.exception("request-log record %s could not be built; dropped", record.request_id)
            continue
        if row is not None:
            rows.append(row)
    return rows


def build_row(record: Captured, keys: dict[str, tuple[int, str, str, str]],
              random_hex: str | None = None) -> dict[str, Any] | None:
    """The stored row of a captured request, or None when its key belongs to no account
    (``random_hex``: the random part of its id, :func:`new_log_id`)."""
    if record.principal is not None:
        principal = record.principal
        tenant_pk, key_id, key_name, mode = principal.tenant_pk, principal.key_id, principal.key_name, principal.mode
    elif record.key_digest in keys:
        tenant_pk, key_id, key_name, mode = keys[record.key_digest]
    else:
        return None
    request = redact_body(record.request_body, route=record.route, fields=BODY_FIELDS)
    response = redact_body(record.response_body, route=record.route)
    response_json = response_facts(record.response_body)
    query = redact_query(record.args, record.known_query) if record.args else None
    return {
        "id": new_log_id(record.created_at, random_hex),
        "created_at": record.created_at,
        "tenant_id": tenant_pk,
        "api_key_id": key_id,
        "api_key_name": key_name[:200],
        "mode": mode,
        "method": record.method[:10],
        "path": scrub(record.path.replace("\x00", "")),
        "route": record.route,
        "status": record.status,
        "duration_ms": record.duration_ms,
        "idempotency_key": idempotency_key(record.idempotency_header, request.fields.get("IdempotencyKey")),
        "error_code": error_code(record.status, response_json),
        "message_ids": orjson.dumps(message_ids(response_json)).decode(),
        "request_id": record.request_id[:40],
        "trace_id": record.trace_id,
        "query": json.dumps(query, ensure_ascii=False) if query is not None else None,
        "request_body": request.text,
        "response_body": response.text,
        "request_body_truncated": request.truncated,
        "response_body_truncated": response.truncated,
        "redaction_version": REDACTION_VERSION,
    }


def response_facts(body: bytes | None) -> Any:
    """A response of ours, parsed for its error code and message ids."""
    if not body or len(body) > RESPONSE_FACTS_BYTES:
        return None
    try:
        return orjson.loads(body)  # the C parser; what it refuses (NaN, huge integers) the standard one may take
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def idempotency_key(header: str | None, in_body: str | None) -> str | None:
    """The key the send used: the header first, then the body's ``IdempotencyKey`` (valid ones only)."""
    if header is not None:
        return header if IDEMPOTENCY_KEY.match(header) else None
    return in_body if in_body is not None and IDEMPOTENCY_KEY.match(in_body) else None


def error_code(status: int, body: Any) -> str | None:
    if status < 400 or not isinstance(body, dict):
        return None
    error = body.get("Error") or body.get("error")
    code = error.get("Code") or error.get("code") if isinstance(error, dict) else None
    return code[:64] if isinstance(code, str) else None


def message_ids(body: Any) -> list[str]:
    """The message ids a send answered with (single sends and every batch result)."""
    if not isinstance(body, dict):
        return []
    found: list[str] = []
    for holder in [body, *(r for r in body.get("Results") or [] if isinstance(r, dict))]:
        ids = holder.get("MessageIds")
        if isinstance(ids, list):
            found.extend(i for i in ids if isinstance(i, str))
    return list(dict.fromkeys(found))
