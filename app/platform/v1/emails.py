"""GET /v1/emails and GET /v1/emails/{id}: the tenant's e-mail messages, newest first.

Every query filters on the caller's tenant, the key's mode and the e-mail channel: another
tenant's message, a message of the other mode (a test key never reads live mail, nor a live key
test mail) or an SMS answers 404 exactly like a missing one. ``NextCursor`` is always an
integer, the offset after this page (on the last page too); ``HasMore`` says whether to go on.
"""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, HTTPResponse, Request
from tortoise.expressions import Q

from app.http import errors
from app.http.query import int_param
from app.http.responses import iso, reply
from app.platform.gate import principal_of
from models.platform.message import Message, MessageEvent, MessageStatus

bp = Blueprint("v1_emails", url_prefix="/v1/emails")

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
STATUSES = [status.value for status in MessageStatus]


def summary(message: Message) -> dict[str, Any]:
    return {
        "MessageId": message.public_id,
        "Status": message.status,
        "To": message.recipient,
        "Role": message.recipient_role,
        "From": message.sender,
        "Subject": message.subject,
        "Mode": message.mode,
        "CreatedAt": iso(message.created_at),
        "UpdatedAt": iso(message.updated_at),
    }


def detail(message: Message) -> dict[str, Any]:
    content = message.content or {}
    return {
        **summary(message),
        "Channel": message.channel,
        "Body": {"Text": content.get("Text"), "Html": content.get("Html")},
        "Headers": content.get("Headers"),
        "ReplyTo": content.get("ReplyTo"),
        "Tags": message.tags,
        "IdempotencyKey": message.idempotency_key,
        "Attempts": message.attempts,
        "Provider": message.provider,
        "ProviderMessageId": message.provider_message_id,
        "FailureReason": message.failure_reason,
    }


def timeline(message: Message, events: list[MessageEvent]) -> list[dict[str, Any]]:
    # Acceptance is the first entry: the message's own creation.
    entries = [{"Type": "queued", "At": iso(message.created_at), "Detail": None}]
    entries += [{"Type": event.type, "At": iso(event.created_at), "Detail": event.detail} for event in events]
    return entries


@bp.get("", ctx_scope="email:read", ctx_query=("status", "q", "cursor", "limit"))
async def list_emails(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    offset = int_param(request, "cursor", default=0, low=0)
    limit = int_param(request, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
    query = Message.filter(tenant_id=principal.tenant_pk, mode=principal.mode, channel="email")
    if (status := request.args.get("status")) is not None:
        if status not in STATUSES:
            raise errors.Unprocessable(f"status must be one of {', '.join(STATUSES)}.",
                                       details={"status": f"one of {', '.join(STATUSES)}"})
        query = query.filter(status=status)
    if q := request.args.get("q"):
        # Tortoise escapes % and _ in contains-filters: they match themselves, never as wildcards.
        query = query.filter(Q(recipient__icontains=q) | Q(subject__icontains=q))
    rows = await query.order_by("-id").offset(offset).limit(limit + 1)
    page = rows[:limit]
    return reply(request, {"Messages": [summary(row) for row in page], "NextCursor": offset + len(page),
                           "HasMore": len(rows) > limit})


@bp.get("/<message_id:str>", ctx_scope="email:read")
async def get_email(request: Request, message_id: str) -> HTTPResponse:
    principal = principal_of(request)
    message = await Message.get_or_none(public_id=message_id, tenant_id=principal.tenant_pk, mode=principal.mode,
                                        channel="email")
    if message is None:
        raise errors.NotFound("No e-mail message with this id.")
    events = await MessageEvent.filter(message_id=message.id).order_by("id")
    return reply(request, {"Message": detail(message), "Events": timeline(message, events)})
