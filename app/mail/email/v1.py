"""``POST /v1/emails`` (scope ``email:send``; contract, sending rule 2): send as one of the account's
mailboxes. 202 once the platform has accepted the messages (one per recipient); 422
``CaixaRemetenteInexistente`` when ``from`` is no mailbox of the account; the platform's refusals
(422 ``RemetenteNaoVerificado``, 429 ``QuotaExceeded``, 409 ``IdempotencyConflict`` ...) as it gives
them, in ``{error, message}``. ``Idempotency-Key`` (header) or ``idempotency_key`` (body)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.responses import reply
from app.mail import db, platform
from app.mail.email import service
from app.mail.email.schemas import IDEMPOTENCY_KEY, EmailCreate
from app.mail.email.views import ACCEPTED, accepted_view
from app.mail.gate import SEND, caller_of

bp = Blueprint("v1_emails", url_prefix="/v1")

# 10 MB of attachments in base64 (4 characters for 3 bytes) and the rest of the message.
MAX_SEND_BYTES = 15 * 1024 * 1024


def header_idempotency_key(request: Request) -> str | None:
    key = request.headers.get("idempotency-key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise errors.ValidationError("Idempotency-Key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -")
    return key


@bp.post("/emails", ctx_scope=SEND, ctx_body=EmailCreate, ctx_errors=(409, 413, 422, 503),
         ctx_responses=answers({202: ACCEPTED}), ctx_max_body=MAX_SEND_BYTES + 1024 * 1024)
async def send_email(request: Request) -> HTTPResponse:
    """Sends one e-mail as a mailbox of the account (one message per recipient)."""
    body = validate(load_json(request, max_bytes=MAX_SEND_BYTES), EmailCreate)
    key = header_idempotency_key(request) or body.idempotency_key
    sent = await service.send(db.connection(), platform.client(request.app), caller_of(request), body, key)
    return reply(request, accepted_view(sent), status=202)
