"""``POST /v1/emails/send`` on the fast path (app/http/fastpath.py): the plain single send taken from
its raw bytes, through the /v1 gate's own rules (app/platform/api_key/gate.py), the route's own
validation and statement (:mod:`.v1`, :mod:`.service`), the request log's capture and the route's
metrics, and answered byte for byte as the route answers (but for the request id).

Why: the accept is Herald's hottest route, and Sanic's request and response handling with the
house's middleware chain was about a quarter of the platform process's samples per send
(bench/README.md, "2026-11-24 (later): the send on the fast path").

Taken: a whole ``POST /v1/emails/send HTTP/1.1`` (no query string) with plain headers, a
``Content-Length`` body within the route's limit, ``Authorization: Bearer <key>`` of a valid key
whose account is active and holds ``email:send``, an account without a monthly quota (the
one-statement path), a valid body without ``Template``, an ``Idempotency-Key`` header absent or
valid, a ``Source`` on a verified domain. It is counted against the key (usage and rate limit),
accepted by the route's own statement, and answered 202, or with the error the statement gives
(a blocked recipient) or meets (500), in the route's envelope with the gate's X-RateLimit-* headers.

Everything else is declined before anything is counted or written, and Sanic's route answers it
as if there were no fast path: a key that does not open, a body that does not validate, a Source
the account cannot send from, ``X-Api-Key``, templates, quotas, unusual HTTP. The one decline after
counting: a key past its rate limit, which the route then counts once more and answers 429 (the
window is over its ceiling either way, and the answer the client sees is the route's).
"""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone

from sanic import Sanic
from sanic.compat import Header
from sanic.headers import format_http1_response
from sanic.models.server_types import ConnInfo

from app.http import errors, fastpath, metrics
from app.http.bodies import parse_json, validate
from app.http.envelope import error_body, note
from app.http.ratelimit import Decision
from app.http.request_id import new_request_id
from app.http.responses import encode
from app.platform import db
from app.platform.api_key import gate
from app.platform.api_key.principal import Principal
from app.platform.message import service, views
from app.platform.message.schemas import IDEMPOTENCY_KEY, EmailSend, sender_address
from app.platform.message.v1 import MAX_SEND_BYTES, SEND_EMAIL_SCOPE, email_item
from app.platform.request_log.capture import Captured, trace_id

PREFIX = b"POST /v1/emails/send HTTP/1.1\r\n"
ROUTE = "/v1/emails/send"
# Headers whose presence the route reads differently from a plain send: declined, Sanic reads them.
ROUTE_READS = ("x-api-key",)


def install(app: Sanic) -> None:
    fastpath.register(app, PREFIX, take)


def take(app: Sanic, data: bytes, connection: ConnInfo | None) -> fastpath.Answer:
    started = time.perf_counter()
    request = _read(app, data)
    if request is None:
        return None
    headers, raw_body, token, key_header = request
    return asyncio.ensure_future(_send(app, started, headers, raw_body, token, key_header))


def _read(app: Sanic, data: bytes) -> tuple[Header, bytes, str, str | None] | None:
    """(headers, body, key, Idempotency-Key) of a send the fast path may take, or None."""
    request = fastpath.read_head(app, data, b"POST")
    if request is None:
        return None
    target, headers, body = request
    if (target != ROUTE or len(body) > min(MAX_SEND_BYTES, app.config.REQUEST_MAX_SIZE)
            or any(name in headers for name in ROUTE_READS)):
        return None
    authorization = headers.getall("authorization", [])
    keys = headers.getall("idempotency-key", [])
    if len(authorization) != 1 or len(keys) > 1 or (keys and not IDEMPOTENCY_KEY.match(keys[0])):
        return None
    try:
        token = gate.bearer_token(authorization[0])
    except errors.HttpError:
        return None
    return headers, body, token, keys[0] if keys else None


async def _send(app: Sanic, started: float, headers: Header, raw_body: bytes, token: str,
                key_header: str | None) -> bytes | None:
    # The route's order: the key, then the body (a caller without a key gets no parse of its body).
    principal = await app.ctx.key_directory.lookup(token)
    if principal is None or principal.revoked or gate.refusal(principal, SEND_EMAIL_SCOPE) is not None:
        return None
    try:
        raw = parse_json(raw_body)
        body = validate(raw, EmailSend)
    except errors.HttpError:
        return None
    if body.template is not None:
        return None
    key = key_header or body.idempotency_key
    item = await email_item(principal, body, key, raw)
    if not service.single_statement(principal, [item]):
        return None
    try:
        await service.check_sender(db.connection(), principal, sender_address(body.source))
    except errors.HttpError:
        return None
    decision = await gate.count_call(app, principal)
    if not decision.allowed:
        return None
    rid = new_request_id()
    # Counted: from here every answer is this one, never a decline (the route would count the call
    # again and, after a failure past the commit, accept the send twice).
    try:
        outcome = await app.ctx.sends.accept(db.connection(), principal, "email", "email.send", item,
                                             compare_bodies=False)
    except Exception as exception:  # noqa: BLE001 - answered as the route's error handler answers it
        error = exception if isinstance(exception, errors.HttpError) else errors.InternalError()
        note(error, exception, "POST", ROUTE, rid)
    else:
        app.ctx.wakeup.poke()
        error = outcome.error
        if error is not None:
            note(error, error, "POST", ROUTE, rid)
    if error is None:
        status, payload, extra = 202, {**views.accepted(outcome), "RequestId": rid}, {}
    else:
        status, payload = error.status, error_body(error, app.config.ERROR_ENVELOPE, rid)
        extra = dict(error.headers or {})
    answer = encode(payload)
    metrics.observe_route(app.config.HERALD_SYSTEM, "POST", ROUTE, status, started)
    _capture(app, started, headers, raw_body, principal, key_header, status, rid, answer)
    return _http(status, answer, rid, decision, extra)


def _capture(app: Sanic, started: float, headers: Header, raw_body: bytes, principal: Principal, key_header: str | None,
             status: int, rid: str, answer: bytes) -> None:
    """The request log's record of the send, as the route's response middleware takes it."""
    elapsed = time.perf_counter() - started
    app.ctx.request_logs.add(Captured(
        created_at=datetime.now(timezone.utc) - timedelta(seconds=elapsed), duration_ms=round(elapsed * 1000, 3),
        method="POST", path=ROUTE, route=ROUTE, known_query=(), args=None, status=status, principal=principal,
        key_digest=None, idempotency_header=key_header, request_id=rid,
        trace_id=trace_id(headers.get("traceparent")), request_body=raw_body or None, response_body=answer))


def _http(status: int, answer: bytes, rid: str, decision: Decision, extra: dict[str, str]) -> bytes:
    """The answer's bytes, with the headers the route's answer carries, in Sanic's order: the
    error's own, the gate's X-RateLimit-* (unless the error set its own), the request id, then
    Sanic's framing and the content type."""
    fields = [(name.encode("latin-1"), str(value).encode("latin-1")) for name, value in extra.items()]
    fields += [(name.encode(), value.encode()) for name, value in decision.headers().items() if name not in extra]
    fields += [(b"X-Request-Id", rid.encode()), (b"content-length", b"%d" % len(answer)),
               (b"connection", b"keep-alive"), (b"content-type", b"application/json")]
    return format_http1_response(status, fields) + answer
