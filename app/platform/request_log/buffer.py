"""The request-log writer: captured requests gather in the process and are written in batches.

Nothing here runs on the request path. Every FLUSH_SECONDS (sooner when BATCH_ROWS are
waiting) the flush task turns captured requests into rows (key resolution, redaction, error
code, message ids) and writes them with one multi-row INSERT per BATCH_ROWS rows. A graceful
stop flushes what is left. If the database refuses, rows stay queued and are retried; a
batch refused FAILURES_BEFORE_DROP times in a row is dropped and logged, so one bad row
cannot block the log. At most MAX_PENDING records wait; beyond that new records are dropped
and counted in the log (the API keeps answering either way).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from tortoise import connections

from app.platform.request_log.capture import Captured
from app.platform.request_log.redaction import REDACTION_VERSION, redact_body, redact_query, scrub
from app.platform.v1.send_schemas import IDEMPOTENCY_KEY
from models.platform.api_key import ApiKey
from models.platform.request_log import ensure_partitions, insert_many, month_start, new_log_id

log = logging.getLogger("herald.request_log")

FLUSH_SECONDS = 0.5
BATCH_ROWS = 500
MAX_PENDING = 20_000
FAILURES_BEFORE_DROP = 5


class RequestLogBuffer:
    def __init__(self) -> None:
        self.pending: list[Captured] = []
        self.ready: list[dict[str, Any]] = []
        self.dropped = 0
        self._failures = 0
        self._warned_at = 0.0
        self._months: set = set()
        self._wake = asyncio.Event()
        self._lock = asyncio.Lock()

    # --- request path --------------------------------------------------------------------------

    def add(self, record: Captured) -> None:
        if len(self.pending) + len(self.ready) >= MAX_PENDING:
            self.dropped += 1
            if time.monotonic() - self._warned_at > 10:
                self._warned_at = time.monotonic()
                log.warning("request-log buffer full; %d records dropped so far", self.dropped)
            return
        self.pending.append(record)
        if len(self.pending) >= BATCH_ROWS:
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

    async def _build(self) -> None:
        pending, self.pending = self.pending, []
        if not pending:
            return
        try:
            keys = await self._resolve({record.key_digest for record in pending if record.key_digest})
        except Exception:  # noqa: BLE001 - the database is away; keep the records for the next round
            log.exception("request-log key resolution failed; will retry")
            self.pending = pending + self.pending
            return
        for index, record in enumerate(pending):
            try:
                row = build_row(record, keys)
            except Exception:  # noqa: BLE001 - one odd request must not stop the log
                log.exception("request-log record %s could not be built; dropped", record.request_id)
                continue
            if row is not None:
                self.ready.append(row)
            if index % 100 == 99:
                await asyncio.sleep(0)  # redaction is CPU work: let requests through between records

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
                    log.exception("request-log batch of %d rows refused %d times; dropped", len(batch),
                                  self._failures)
                    del self.ready[:len(batch)]
                    self._failures = 0
                    continue
                log.exception("request-log write failed; will retry")
                return
            self._failures = 0
            del self.ready[:len(batch)]

    @staticmethod
    async def _resolve(digests: set[str]) -> dict[str, tuple[int, str, str, str]]:
        """Key hash -> (tenant pk, key id, key name, mode), for keys the gate did not accept."""
        if not digests:
            return {}
        keys = await ApiKey.filter(key_hash__in=list(digests)).only("key_hash", "tenant_id", "public_id", "name",
                                                                    "mode")
        return {key.key_hash: (key.tenant_id, key.public_id, key.name, key.mode) for key in keys}


def build_row(record: Captured, keys: dict[str, tuple[int, str, str, str]]) -> dict[str, Any] | None:
    """The stored row of a captured request, or None when its key belongs to no account."""
    if record.principal is not None:
        principal = record.principal
        tenant_pk, key_id, key_name, mode = principal.tenant_pk, principal.key_id, principal.key_name, principal.mode
    elif record.key_digest in keys:
        tenant_pk, key_id, key_name, mode = keys[record.key_digest]
    else:
        return None
    request_json = _json(record.request_body)
    response_json = _json(record.response_body)
    request_body, request_cut = redact_body(record.request_body, route=record.route, document=request_json)
    response_body, response_cut = redact_body(record.response_body, route=record.route, document=response_json)
    query = redact_query(record.args, record.known_query) if record.args else None
    return {
        "id": new_log_id(record.created_at),
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
        "idempotency_key": idempotency_key(record.idempotency_header, request_json),
        "error_code": error_code(record.status, response_json),
        "message_ids": json.dumps(message_ids(response_json)),
        "request_id": record.request_id[:40],
        "trace_id": record.trace_id,
        "query": json.dumps(query, ensure_ascii=False) if query is not None else None,
        "request_body": request_body,
        "response_body": response_body,
        "request_body_truncated": request_cut,
        "response_body_truncated": response_cut,
        "redaction_version": REDACTION_VERSION,
    }


def _json(body: bytes | None) -> Any:
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None


def idempotency_key(header: str | None, body: Any) -> str | None:
    """The key the send used: the header first, then the body's ``IdempotencyKey`` (valid ones only)."""
    if header is not None:
        return header if IDEMPOTENCY_KEY.match(header) else None
    value = body.get("IdempotencyKey") if isinstance(body, dict) else None
    return value if isinstance(value, str) and IDEMPOTENCY_KEY.match(value) else None


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
