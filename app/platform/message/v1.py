"""The /v1 message routes: sending (e-mail single and batch, SMS, push, WhatsApp) and reading
e-mail back (GET /v1/emails, GET /v1/emails/{id}).

A send answers 202 once its messages and outbox rows are committed (app/platform/message/service.py);
delivery happens in the workers. The listing pages by offset: ``NextCursor`` is always an integer,
the offset after this page (on the last page too); ``HasMore`` says whether to go on.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.http.openapi import answers
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.api_key.principal import Principal
from app.platform.message import attachments, compose, reads, service, views
from app.platform.message.schemas import (IDEMPOTENCY_KEY, EmailBatch, EmailSend, PushSend, SmsSend, WhatsappSend,
                                          sender_address)
from app.platform.message.service import Draft, Item, Outcome, body_hash
from app.platform.template import service as templates
from models.platform import message as messages
from app.platform.template.render import RenderDeadline

bp = Blueprint("v1_message", url_prefix="/v1")

MAX_SEND_BYTES = 2 * 1024 * 1024
# An e-mail may carry 10 MB of attachments (base64: 4 characters for 3 bytes); a batch is bounded as a whole.
MAX_EMAIL_SEND_BYTES = 15 * 1024 * 1024
MAX_EMAIL_BATCH_BYTES = 16 * 1024 * 1024
# What the server reads of an e-mail route's body at most (past it the connection is answered 413 and
# closed): above the routes' own caps, so that a body just past a cap is read and answered clearly.
MAX_BODY_BYTES = 20 * 1024 * 1024
SEND_EMAIL_SCOPE = "email:send"
DEFAULT_LIMIT = 20
# A batch renders its items one after the other: after this many renders stopped at the deadline,
# its later template items are refused unrendered (500 items would otherwise hold a render process
# for 500 deadlines).
BATCH_DEADLINE_STRIKES = 2
MAX_LIMIT = 100


def header_idempotency_key(request: Request) -> str | None:
    key = request.headers.get("idempotency-key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise errors.ValidationError("Idempotency-Key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -",
                                     details={"Idempotency-Key": "1 to 128 characters of A-Z a-z 0-9 . _ : -"})
    return key


def _body(request: Request, model: type[BaseModel], max_bytes: int = MAX_SEND_BYTES) -> tuple[dict[str, Any], Any]:
    raw = load_json(request, max_bytes=max_bytes)
    return raw, validate(raw, model)


async def accept(request: Request, principal: Principal, channel: str, operation: str, items: list[Item], *,
                 compare_bodies: bool) -> list[Outcome]:
    """The one accept path (app/platform/message/coalesce.py, then service.accept), for every send
    route of the platform: written with the sends that wait with it."""
    return await request.app.ctx.sends.accept(db.connection(), principal, channel, operation, items,
                                              compare_bodies=compare_bodies)


async def send_one(request: Request, channel: str, item: Item, *, compare_bodies: bool) -> HTTPResponse:
    """Accept one request's messages, nudge the relay, answer 202 (or the item's error)."""
    [outcome] = await accept(request, principal_of(request), channel, f"{channel}.send", [item],
                             compare_bodies=compare_bodies)
    request.app.ctx.wakeup.poke()
    if outcome.error is not None:
        raise outcome.error
    return reply(request, views.accepted(outcome), status=202)


async def email_item(principal: Principal, body: EmailSend, key: str | None, raw: dict[str, Any]) -> Item:
    """The item of one e-mail send; a Template is rendered here (422 for a missing variable, or a
    rendered subject that would add a header line)."""
    if body.template is not None:
        found = await templates.rendered(db.connection(), principal.tenant_pk, body.template, "email",
                                                 body.variables or {})
        subject = found.subject or ""
        if any(character in subject for character in ("\r", "\n", "\0")):
            raise errors.Unprocessable("The rendered Subject contains CR, LF or NUL.",
                                       details={"Subject": "must not contain CR, LF or NUL once rendered"})
        content = body.content(found.text, found.html)
    else:
        subject, content = body.message.subject.data, body.content()
    not_before = compose.scheduled(body.scheduled_at, datetime.now(timezone.utc))
    content.update(compose.email_extras(None, None, attachments.sealed(body.attachments), not_before))
    drafts = [Draft(address, role, body.source, subject, content, body.tags, template=body.template,
                    not_before=not_before) for address, role in body.recipients()]
    attachments.check_stored(attachments.stored_bytes(content, len(drafts)))
    return Item(drafts, key, body_hash(raw, key))


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


@bp.post("/emails/send", ctx_scope=SEND_EMAIL_SCOPE, ctx_body=EmailSend, ctx_responses=answers({202: views.ACCEPTED}),
         ctx_max_body=MAX_EMAIL_SEND_BYTES + 1024 * 1024)
async def send_email(request: Request) -> HTTPResponse:
    """Send one e-mail: accepted (202) and queued; its MessageId follows it through /v1/emails and the webhooks."""
    principal = principal_of(request)
    raw, body = _body(request, EmailSend, MAX_EMAIL_SEND_BYTES)
    key = header_idempotency_key(request) or body.idempotency_key
    await service.check_sender(db.connection(), principal, sender_address(body.source))
    # E-mail replays the original answer without comparing bodies (contract rule 3).
    return await send_one(request, "email", await email_item(principal, body, key, raw), compare_bodies=False)


@bp.post("/emails/batch", ctx_scope=SEND_EMAIL_SCOPE, ctx_body=EmailBatch, ctx_responses=answers({202: views.BATCH}),
         ctx_max_body=MAX_BODY_BYTES)
async def send_email_batch(request: Request) -> HTTPResponse:
    """Send several e-mails in one request; each item is accepted or refused on its own."""
    principal = principal_of(request)
    _, batch = _body(request, EmailBatch, MAX_EMAIL_BATCH_BYTES)
    header_key = header_idempotency_key(request)
    items: list[tuple[int, Item]] = []
    results: list[dict[str, Any]] = [{"Index": index} for index in range(len(batch.messages))]
    checked: dict[str, errors.HttpError | None] = {}
    strikes = 0
    stored = 0  # the attachments' bytes the accepted items store (attachments.MAX_STORED_BYTES)
    for index, raw in enumerate(batch.messages):
        try:
            body = validate(raw, EmailSend)
            if body.template is not None and strikes >= BATCH_DEADLINE_STRIKES:
                raise errors.Unprocessable(
                    f"Not rendered: {strikes} earlier items of this batch passed the render deadline.",
                    details={"Template": "not rendered: earlier items of this batch passed the render deadline"})
            sender = sender_address(body.source)
            if sender not in checked:
                try:
                    await service.check_sender(db.connection(), principal, sender)
                    checked[sender] = None
                except errors.HttpError as refusal:
                    checked[sender] = refusal
            if checked[sender] is not None:
                raise checked[sender]
            key = f"{header_key}:{index}" if header_key else body.idempotency_key
            item = await email_item(principal, body, key, raw)
            attachments.check_stored(stored + attachments.stored_bytes(item.drafts[0].content, len(item.drafts)))
            stored += attachments.stored_bytes(item.drafts[0].content, len(item.drafts))
        except errors.HttpError as error:
            strikes += isinstance(error, RenderDeadline)
            results[index]["Error"] = views.item_error(error)
            continue
        items.append((index, item))
    outcomes = await accept(request, principal, "email", "email.send", [item for _, item in items],
                            compare_bodies=False)
    for (index, _), outcome in zip(items, outcomes):
        if outcome.error is not None:
            results[index]["Error"] = views.item_error(outcome.error)
        else:
            results[index].update(views.batch_item(outcome))
    if items:
        request.app.ctx.wakeup.poke()
    return reply(request, {"Count": len(results), "Results": results}, status=202)


@bp.post("/emails/<message_id:id>/cancel", ctx_scope=SEND_EMAIL_SCOPE, ctx_errors=(404, 409),
         ctx_responses=answers({200: views.CANCELLED}))
async def cancel_email(request: Request, message_id: str) -> HTTPResponse:
    """Cancel a scheduled e-mail (or one no attempt has begun): it will never be sent."""
    principal = principal_of(request)
    found = await messages.cancel(db.connection(), principal.tenant_pk, principal.mode, message_id)
    if found is None:
        raise errors.NotFound("No such e-mail.")
    if found != "cancelled":
        raise errors.Conflict(f"This e-mail can no longer be cancelled: sending has started (status {found}).",
                              details={"Status": found})
    return reply(request, {"MessageId": message_id, "Status": "failed", "Cancelled": True})


@bp.post("/sms/send", ctx_scope="sms:send", ctx_body=SmsSend, ctx_responses=answers({202: views.ACCEPTED}))
async def send_sms(request: Request) -> HTTPResponse:
    """Send an SMS to one or more numbers: accepted (202) and queued."""
    raw, body = _body(request, SmsSend)
    key = header_idempotency_key(request) or body.idempotency_key
    text = body.body
    if body.template is not None:
        text = (await templates.rendered(db.connection(), principal_of(request).tenant_pk, body.template,
                                                 "sms", body.variables or {})).text
    drafts = [Draft(number, "to", body.from_, None, {"Body": text}, body.tags, template=body.template)
              for number in _unique(body.to)]
    return await send_one(request, "sms", Item(drafts, key, body_hash(raw, key)), compare_bodies=True)


@bp.post("/push/send", ctx_scope="push:send", ctx_body=PushSend, ctx_responses=answers({202: views.ACCEPTED}))
async def send_push(request: Request) -> HTTPResponse:
    """Send a push notification to registered devices: accepted (202) and queued."""
    raw = load_json(request, max_bytes=MAX_SEND_BYTES)
    if isinstance(raw, dict) and "Topic" in raw:
        raise errors.ValidationError("Topic sending is not supported; send to DeviceTokens.",
                                     details={"Topic": "not supported"})
    body = validate(raw, PushSend)
    key = header_idempotency_key(request) or body.idempotency_key
    content = {"Title": body.notification.title, "Body": body.notification.body, "Data": body.data}
    drafts = [Draft(token, "device", None, body.notification.title, content, body.tags)
              for token in _unique(body.device_tokens)]
    return await send_one(request, "push", Item(drafts, key, body_hash(raw, key)), compare_bodies=True)


@bp.post("/whatsapp/send", ctx_scope="whatsapp:send", ctx_body=WhatsappSend,
         ctx_responses=answers({202: views.ACCEPTED}))
async def send_whatsapp(request: Request) -> HTTPResponse:
    """Send a WhatsApp message: accepted (202) and queued."""
    principal = principal_of(request)
    raw, body = _body(request, WhatsappSend)
    key = header_idempotency_key(request) or body.idempotency_key
    if body.template is not None:
        content = await service.template_content(db.connection(), principal, body.template, body.variables or {})
    else:
        content = {"Body": body.body}
    drafts = [Draft(number, "to", None, None, content, body.tags, template=body.template)
              for number in _unique(body.to)]
    return await send_one(request, "whatsapp", Item(drafts, key, body_hash(raw, key)), compare_bodies=True)


@bp.get("/emails", ctx_scope="email:read", ctx_query=("status", "q", "cursor", "limit"),
         ctx_responses=answers({200: views.EMAILS}))
async def list_emails(request: Request) -> HTTPResponse:
    """The account's e-mails, newest first, filtered by status or a search, a page at a time."""
    page = OffsetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await reads.list_emails(db.connection(), principal_of(request), page,
                                      status=request.args.get("status"), search=request.args.get("q"))
    return reply(request, {"Messages": [views.summary(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@bp.get("/emails/<message_id:id>", ctx_scope="email:read", ctx_responses=answers({200: views.EMAIL}))
async def get_email(request: Request, message_id: str) -> HTTPResponse:
    """One e-mail: its status, recipients and the events of its delivery."""
    message, events = await reads.email_with_timeline(db.connection(), principal_of(request), message_id)
    return reply(request, {"Message": views.detail(message), "Events": views.timeline(message, events)})
