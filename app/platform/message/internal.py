"""The platform's internal send route, for the CRM's journeys (service credential; docs/crm.md,
"Journeys", and docs/services.md).

    POST /internal/v1/tenants/{account}/messages/send    202 {Messages, ReusedIdempotency}

The body is the dashboard composer's (app/platform/message/compose.py: PascalCase, with
``IdempotencyKey``) plus ``Mode``: ``"live"`` sends as the account's live keys do, ``"test"`` as its
``sk_test_`` keys do (the dev sinks, the sandbox sender domain). The account is the tenant whose
public id the path names (the CRM's tenant string is that id, as app/platform/audience uses it); a
suspended account is refused as /v1 refuses it. With ``ApiKeyId`` (the SMTP server's submissions: it
authenticated that key itself) the message is the key's, in the key's mode, and the call is a row of
the account's request log (method ``SMTP``, path ``/smtp/submission``), as the key's HTTP sends are;
a key revoked since, or one without ``email:send``, is refused 403. It runs the one accept path of /v1 and the composer
(rules, idempotency, quota, outbox in one statement): a repeat with the same ``IdempotencyKey`` and body
answers the first messages with ``ReusedIdempotency: true``, which is what makes a journey's send
step safe to repeat after a worker dies mid-step.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import example, load_json, validate
from app.http.openapi import answers
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.api_key.principal import Principal, key_of_account
from app.platform.message import compose, service, views
from app.platform.message.schemas import ComposeSend
from app.platform.message.service import Item, body_hash
from app.platform.message.v1 import MAX_EMAIL_SEND_BYTES, accept

bp = Blueprint("internal_messages", url_prefix="/internal/v1/tenants/<account:slug>")


class InternalSend(ComposeSend):
    """The composer's body and the mode the call sends in."""
    model_config = example({"Channel": "email", "Recipients": ["ana@example.com"],
                            "From": "Acme <hello@sandbox.herald.test>", "Subject": "Welcome to Acme",
                            "Text": "Glad to have you.", "Mode": "test"})

    mode: Literal["test", "live"]
    """live sends as the account's live keys do; test as its sk_test_ keys do (the dev sinks, the sandbox domain)."""
    api_key_id: str | None = None
    """The SMTP server's submissions: the id of the key it authenticated; the message is that key's, in its mode."""

# How a submission appears in the request log (app/platform/request_log/capture.py).
SUBMISSION_LOG = ("SMTP", "/smtp/submission")


async def _tenant_pk(account: str) -> int:
    rows = await db.connection().execute_query_dict("SELECT id FROM tenants WHERE public_id = $1", [account])
    if not rows:
        raise errors.NotFound("No such account.")
    return rows[0]["id"]


async def _submitting_key(tenant_pk: int, key_id: str, mode: str) -> Principal:
    principal = await key_of_account(key_id, tenant_pk)
    if principal is None or principal.revoked or principal.publishable:
        raise errors.Forbidden("The API key is not a usable key of this account any more.")
    if "email:send" not in principal.scopes:
        raise errors.InsufficientScope("email:send")
    if principal.mode != mode:
        raise errors.ValidationError("'Mode' is not the key's mode.", details={"Mode": f"the key sends in {principal.mode} mode"})
    if not principal.tenant_active:
        raise errors.TenantSuspended()
    return principal


@bp.post("/messages/send", ctx_auth="service", ctx_body=InternalSend, ctx_errors=(404, 409, 413, 422, 429, 503),
         ctx_responses=answers({202: views.COMPOSED}), ctx_max_body=MAX_EMAIL_SEND_BYTES + 1024 * 1024)
async def send(request: Request, account: str) -> HTTPResponse:
    """Accept one composer message for the account, in the mode the body names."""
    require_service_credential(request)
    raw = load_json(request, max_bytes=MAX_EMAIL_SEND_BYTES)
    body = validate(raw, InternalSend)
    conn = db.connection()
    tenant_pk = await _tenant_pk(account)
    if body.api_key_id is not None:
        principal = await _submitting_key(tenant_pk, body.api_key_id, body.mode)
        request.ctx.principal, request.ctx.request_log_as = principal, SUBMISSION_LOG
    else:
        principal = await service.account_principal(conn, tenant_pk)
        principal = dataclasses.replace(principal, mode=body.mode, key_name=f"internal-{body.mode}")
    composed = await compose.compose(conn, principal, body)
    key = body.idempotency_key
    item = Item(composed.drafts, key, body_hash(raw, key))
    [outcome] = await accept(request, principal, composed.channel, f"{composed.channel}.internal", [item],
                             compare_bodies=True)
    request.app.ctx.wakeup.poke()
    if outcome.error is not None:
        raise outcome.error
    return reply(request, views.composed(outcome, [draft.recipient for draft in composed.drafts]), status=202)
