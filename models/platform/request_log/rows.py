"""A captured request turned into its ``request_logs`` row: the key resolved, both bodies redacted
(:mod:`.body`), the answer read for its error code and message ids. Plain CPU work, no I/O: the
stream consumer (tasks/streams/request_log.py) runs it on what the HTTP process handed over.

``record`` is a ``Captured`` (app/platform/request_log/capture.py) or the :class:`~.stream.Record`
read back from the stream: the same fields, the gate's principal read for its account, key id,
key name and mode only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
from typing import Any

import orjson

from models.platform.request_log.body import redact_body
from models.platform.request_log.redaction import REDACTION_VERSION, redact_query, scrub
from models.platform.request_log.table import RANDOM_BYTES, new_log_id

log = logging.getLogger("herald.request_log")

# Top-level fields of a request body that the row keeps as they were sent.
BODY_FIELDS = frozenset({"IdempotencyKey"})
# A response of ours that carries an error code or message ids is far smaller than this; a
# larger one is not parsed for them.
RESPONSE_FACTS_BYTES = 1024 * 1024
# A valid idempotency key, as the send checks it (app/platform/message/schemas.py; the models may not
# import the app: tests/platform/test_request_log_redaction.py holds the two to the same pattern).
IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,128}\Z")
# Key hash -> (tenant pk, key id, key name, mode), for keys the gate did not accept.
Keys = dict[str, tuple[int, str, str, str]]


def entry_random(key: bytes, entry_id: str) -> str:
    """The random part of a row's id (:func:`new_log_id`), made from its stream entry with a keyed
    hash: unpredictable without the key, and the same when an entry is written a second time (after
    a consumer died before acknowledging it), so the row is kept once."""
    return hmac.new(key, entry_id.encode(), hashlib.sha256).hexdigest()[:2 * RANDOM_BYTES]


def build_rows(records: list, keys: Keys) -> list[dict[str, Any]]:
    """The rows of captured requests, each with a fresh random id (plain CPU work, no I/O)."""
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


SENDS = ("POST", "SMTP")  # the methods of requests that create messages


def build_row(record: Any, keys: Keys, random_hex: str | None = None) -> dict[str, Any] | None:
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
        # The messages a send created (an HTTP POST, an SMTP submission): a read that lists messages
        # (GET /v1/emails) names them but made none.
        "message_ids": orjson.dumps(message_ids(response_json) if record.method in SENDS else []).decode(),
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
    # The internal send route's answer (an SMTP submission): one entry per message.
    for message in body.get("Messages") or []:
        if isinstance(message, dict) and isinstance(message.get("MessageId"), str):
            found.append(message["MessageId"])
    return list(dict.fromkeys(found))
