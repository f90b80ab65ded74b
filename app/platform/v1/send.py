"""The send routes: e-mail (single and batch), SMS, push and WhatsApp. Each answers 202 once its
messages and outbox rows are committed; delivery happens in the workers."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.responses import reply
from app.platform.accept import Draft, Item, accept, body_hash
from app.platform.gate import principal_of
from app.platform.principal import Principal
from app.platform.v1.send_schemas import (IDEMPOTENCY_KEY, EmailBatch, EmailSend, PushSend, SmsSend, WhatsappSend,
                                          sender_address)
from models.platform.domain import (UNREACHABLE_RECHECK_SECONDS, SenderState, WhatsappTemplate,
                                    sender_domain_state)

bp = Blueprint("v1_send", url_prefix="/v1")

MAX_SEND_BYTES = 2 * 1024 * 1024


def header_idempotency_key(request: Request) -> str | None:
    key = request.headers.get("idempotency-key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise errors.ValidationError("Idempotency-Key must be 1 to 128 characters of A-Z a-z 0-9 . _ : -",
                                     details={"Idempotency-Key": "1 to 128 characters of A-Z a-z 0-9 . _ : -"})
    return key


def _body(request: Request, model: type[BaseModel]) -> tuple[dict[str, Any], Any]:
    raw = load_json(request, max_bytes=MAX_SEND_BYTES)
    return raw, validate(raw, model)


async def send_one(request: Request, channel: str, item: Item, *, compare_bodies: bool) -> HTTPResponse:
    """Accept one request's messages, nudge the relay, answer 202 (or the item's error)."""
    [outcome] = await accept(principal_of(request), channel, f"{channel}.send", [item],
                             compare_bodies=compare_bodies)
    request.app.ctx.wakeup.poke()
    if outcome.error is not None:
        raise outcome.error
    return reply(request, {"MessageId": outcome.message_ids[0] if outcome.message_ids else None,
                           "MessageIds": outcome.message_ids, "Status": "queued",
                           "ReusedIdempotency": outcome.reused}, status=202)


async def _check_sender(principal: Principal, source: str) -> None:
    state = await sender_domain_state(principal.tenant_pk, principal.mode, sender_address(source))
    if state is SenderState.UNCONFIRMED:
        # Verified once, but DNS has not answered for longer than the verification stays valid.
        raise errors.VerificacaoIndisponivel(retry_after=UNREACHABLE_RECHECK_SECONDS,
                                             details={"Source": "domain verification cannot be confirmed now"})
    if state is not SenderState.VERIFIED:
        raise errors.RemetenteNaoVerificado(
            f"{sender_address(source)} is not on a verified domain of this account; verify the domain first.",
            details={"Source": "domain not verified"})


def _email_item(body: EmailSend, key: str | None, raw: dict[str, Any]) -> Item:
    content = body.content()
    drafts = [Draft(address, role, body.source, body.message.subject.data, content, body.tags)
              for address, role in body.recipients()]
    return Item(drafts, key, body_hash(raw, key))


@bp.post("/emails/send", ctx_scope="email:send")
async def send_email(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    raw, body = _body(request, EmailSend)
    key = header_idempotency_key(request) or body.idempotency_key
    await _check_sender(principal, body.source)
    # E-mail replays the original answer without comparing bodies (contract rule 3).
    return await send_one(request, "email", _email_item(body, key, raw), compare_bodies=False)


@bp.post("/emails/batch", ctx_scope="email:send")
async def send_email_batch(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    _, batch = _body(request, EmailBatch)
    header_key = header_idempotency_key(request)
    items: list[tuple[int, Item]] = []
    results: list[dict[str, Any]] = [{"Index": index} for index in range(len(batch.messages))]
    checked: dict[str, errors.HttpError | None] = {}
    for index, raw in enumerate(batch.messages):
        try:
            body = validate(raw, EmailSend)
            sender = sender_address(body.source)
            if sender not in checked:
                try:
                    await _check_sender(principal, body.source)
                    checked[sender] = None
                except errors.HttpError as refusal:
                    checked[sender] = refusal
            if checked[sender] is not None:
                raise checked[sender]
        except errors.HttpError as error:
            results[index]["Error"] = _item_error(error)
            continue
        key = f"{header_key}:{index}" if header_key else body.idempotency_key
        items.append((index, _email_item(body, key, raw)))
    outcomes = await accept(principal, "email", "email.send", [item for _, item in items], compare_bodies=False)
    for (index, _), outcome in zip(items, outcomes):
        if outcome.error is not None:
            results[index]["Error"] = _item_error(outcome.error)
        else:
            results[index].update(MessageId=outcome.message_ids[0] if outcome.message_ids else None,
                                  MessageIds=outcome.message_ids,
                                  ReusedIdempotency=outcome.reused)
    if items:
        request.app.ctx.wakeup.poke()
    return reply(request, {"Count": len(results), "Results": results}, status=202)


def _item_error(error: errors.HttpError) -> dict[str, Any]:
    body: dict[str, Any] = {"Code": error.code, "Message": error.message}
    if error.details:
        body["Details"] = error.details
    return body


@bp.post("/sms/send", ctx_scope="sms:send")
async def send_sms(request: Request) -> HTTPResponse:
    raw, body = _body(request, SmsSend)
    key = header_idempotency_key(request) or body.idempotency_key
    drafts = [Draft(number, "to", body.from_, None, {"Body": body.body}, body.tags) for number in _unique(body.to)]
    return await send_one(request, "sms", Item(drafts, key, body_hash(raw, key)), compare_bodies=True)


@bp.post("/push/send", ctx_scope="push:send")
async def send_push(request: Request) -> HTTPResponse:
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


@bp.post("/whatsapp/send", ctx_scope="whatsapp:send")
async def send_whatsapp(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    raw, body = _body(request, WhatsappSend)
    key = header_idempotency_key(request) or body.idempotency_key
    if body.template is not None:
        content = await _template_content(principal, body.template, body.variables or {})
    else:
        content = {"Body": body.body}
    drafts = [Draft(number, "to", None, None, content, body.tags) for number in _unique(body.to)]
    return await send_one(request, "whatsapp", Item(drafts, key, body_hash(raw, key)), compare_bodies=True)


async def _template_content(principal: Principal, slug: str, variables: dict[str, str]) -> dict[str, Any]:
    template = await WhatsappTemplate.get_or_none(tenant_id=principal.tenant_pk, slug=slug)
    if template is None or template.status != "approved":
        state = "unknown" if template is None else template.status
        raise errors.Unprocessable(f"Template {slug!r} is not an approved template of this account ({state}).",
                                   details={"Template": f"not approved ({state})"})
    rendered = template.body
    placeholders = sorted(set(re.findall(r"\{\{(\w+)\}\}", template.body)))
    missing = [name for name in placeholders if name not in variables]
    if missing:
        raise errors.Unprocessable(f"Template {slug!r} needs the variables {', '.join(missing)}.",
                                   details={f"Variables.{name}": "required" for name in missing})
    for name in placeholders:
        rendered = rendered.replace("{{" + name + "}}", variables[name])
    return {"Template": slug, "Language": template.language, "Variables": variables, "Body": rendered}


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))
