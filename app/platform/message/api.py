"""The dashboard's messages (contract C3; docs/dashboard-messages.md).

    GET  /api/messages            every channel of the account, newest first: channel, status, q, api_key,
                                  from, to, cursor, limit
    GET  /api/messages/{id}       {Message, Events}; another account's id is the same 404 as a missing one
    POST /api/messages/send       the composer: 202 {Messages, ReusedIdempotency}

The account is the one the gate resolved (``X-Service-Tenant``, else the person's first). Paging
is by keyset: ``NextCursor`` is an opaque cursor (signed, bound to the account), null on the last
page. The composer runs the one accept path of /v1 (same rules, idempotency, outbox, quota) in live mode
and needs the ``admin`` role.
"""

from __future__ import annotations

from dataclasses import replace

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.cursors import open_cursor, sign_cursor
from app.http.openapi import answers
from app.http.query import int_param
from app.http.responses import reply
from app.platform import db
from app.platform.message import compose, reads, service, views
from app.platform.message.schemas import ComposeSend
from app.platform.message.service import Item, body_hash
from app.platform.message.v1 import MAX_SEND_BYTES, accept, header_idempotency_key
from app.platform.gate import api as gate
from app.platform.report.window import bounds

bp = Blueprint("platform_dashboard_message", url_prefix="/api/messages")

DEFAULT_LIMIT = 20
MAX_LIMIT = 100


def _audience(tenant_id: str) -> str:
    return f"dashboard-messages:{tenant_id}"


@bp.get("", ctx_auth="session", ctx_tenant="header",
        ctx_query=("channel", "status", "q", "api_key", "from", "to", "cursor", "limit"),
        ctx_errors=(400, 403), ctx_responses=answers({200: views.MESSAGES}))
async def list_messages(request: Request) -> HTTPResponse:
    """List the account's messages, newest first, a page at a time.

    Any member of the account (`X-Service-Tenant`). Filters: `channel`, `status`, `q` (a recipient or subject),
    `api_key` (the messages one key sent), `from` and `to` (whole UTC days, `to` included). 400 for a bad filter or an
    altered cursor."""
    access = gate.tenant(request)
    limit = int_param(request, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
    channel, status = request.args.get("channel") or None, request.args.get("status") or None
    reads.check_filters(channel, status)
    start, end = bounds(request.args.get("from"), request.args.get("to"))
    secret = request.app.ctx.settings.require_secret_keys()
    conn = db.connection()
    filters = reads.Filters(channel=channel, status=status, search=request.args.get("q"), start=start, end=end)
    key_id = request.args.get("api_key")
    if key_id:
        key_pk, mode, since = await reads.api_key_of(conn, access.tenant_pk, key_id)
        filters = replace(filters, api_key_pk=key_pk, modes=(mode,), floor=since)
    before = None
    cursor = request.args.get("cursor")
    if cursor:
        anchor = open_cursor(cursor, secret_keys=secret, audience=_audience(access.tenant_id))
        before = await reads.message_pk_of(conn, access.tenant_pk, str(anchor))
        if before is None:
            raise errors.InvalidCursor()
    rows, more = await reads.list_messages(conn, access.tenant_pk, limit=limit, before_pk=before, filters=filters)
    next_cursor = sign_cursor(rows[-1].public_id, secret_keys=secret,
                              audience=_audience(access.tenant_id)) if more else None
    return reply(request, {"Messages": [views.dashboard_summary(row) for row in rows], "NextCursor": next_cursor,
                           "HasMore": more})


@bp.get("/<message_id:id>", ctx_auth="session", ctx_tenant="header", ctx_errors=(403,),
        ctx_responses=answers({200: views.MESSAGE}))
async def get_message(request: Request, message_id: str) -> HTTPResponse:
    """Retrieve one of the account's messages with its event timeline.

    Any member of the account (`X-Service-Tenant`); 404 for a message of another account."""
    conn = db.connection()
    message, events = await reads.message_with_timeline(conn, gate.tenant(request).tenant_pk, message_id)
    key_id = await reads.api_key_id_of(conn, message)
    return reply(request, {"Message": views.dashboard_detail(message, key_id), "Events": views.timeline(message, events)})


# ctx_idempotency=False: the gate does not replay this route's answer; the accept path keeps the
# Idempotency-Key itself, as /v1 does, so a replay says ReusedIdempotency: true.
@bp.post("/send", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=ComposeSend,
         ctx_errors=(403, 409, 413, 422, 429, 503), ctx_responses=answers({202: views.COMPOSED}),
         ctx_idempotency=False)
async def send(request: Request) -> HTTPResponse:
    """Send a message from the dashboard's composer: e-mail, SMS, push or WhatsApp, free text or a template.

    Owners and admins of the account (`X-Service-Tenant`); the send is the account's, as with an API key. 202 with each
    recipient's message id. `Idempotency-Key` (or `IdempotencyKey` in the body) makes a retry answer the first send; 409
    for the same key with another body. 400 and 422 for what cannot be sent; 429 over the account's limits; 503 when
    sending is unavailable."""
    raw = load_json(request, max_bytes=MAX_SEND_BYTES)
    body = validate(raw, ComposeSend)
    key = header_idempotency_key(request) or body.idempotency_key
    conn = db.connection()
    principal = await service.account_principal(conn, gate.tenant(request).tenant_pk)
    composed = await compose.compose(conn, principal, body)
    item = Item(composed.drafts, key, body_hash(raw, key))
    [outcome] = await accept(request, principal, composed.channel, f"{composed.channel}.compose", [item],
                             compare_bodies=True)
    request.app.ctx.wakeup.poke()
    if outcome.error is not None:
        raise outcome.error
    return reply(request, views.composed(outcome, [draft.recipient for draft in composed.drafts]), status=202)
