"""Messages as the contract writes them: the 202 of a send, a listing's summary, the detail and
its timeline."""

from __future__ import annotations

from typing import Any

from app.http import errors
from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.platform.message import attachments
from app.platform.message.service import Outcome
from kit.timestamps import iso
from models.platform.message import Message, MessageEvent


def accepted(outcome: Outcome) -> dict[str, Any]:
    """The 202 of a single send."""
    return {"MessageId": outcome.message_ids[0] if outcome.message_ids else None,
            "MessageIds": outcome.message_ids, "Status": "queued", "ReusedIdempotency": outcome.reused}


def batch_item(outcome: Outcome) -> dict[str, Any]:
    """What a batch answers for one accepted item (its ``Index`` is the caller's)."""
    return {"MessageId": outcome.message_ids[0] if outcome.message_ids else None,
            "MessageIds": outcome.message_ids, "ReusedIdempotency": outcome.reused}


def item_error(error: errors.HttpError) -> dict[str, Any]:
    """A batch item's own error, in the envelope's casing."""
    body: dict[str, Any] = {"Code": error.code, "Message": error.message}
    if error.details:
        body["Details"] = error.details
    return body


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
        "Attachments": attachments.listed(content),
        "ScheduledAt": content.get("ScheduledAt"),
        "Tags": message.tags,
        "IdempotencyKey": message.idempotency_key,
        "Attempts": message.attempts,
        "Provider": message.provider,
        "ProviderMessageId": message.provider_message_id,
        "FailureReason": message.failure_reason,
    }


def timeline(message: Message, events: list[MessageEvent]) -> list[dict[str, Any]]:
    # Acceptance is the first entry: the message's own creation.
    # A scheduled send's entry says when it is due (kept in its content: its next attempt's time changes).
    due = (message.content or {}).get("ScheduledAt")
    entries = [{"Type": "queued", "At": iso(message.created_at), "Detail": {"ScheduledAt": due} if due else None}]
    entries += [{"Type": event.type, "At": iso(event.created_at), "Detail": event.detail} for event in events]
    return entries


# The answers' shapes, for the OpenAPI document (app/http/openapi.py).
_IDS = {"MessageId": NULLABLE_STRING, "MessageIds": {"type": "array", "items": STRING},
        "ReusedIdempotency": {"type": "boolean"}}
ACCEPTED = reply_of(**_IDS, Status={"const": "queued"})
BATCH_ITEM = {"anyOf": [shape(Index={"type": "integer"}, **_IDS),
                        shape("Details", Index={"type": "integer"},
                              Error=shape("Details", Code=STRING, Message=STRING, Details={"type": "object"}))]}
CANCELLED = reply_of(MessageId=STRING, Status={"const": "failed"}, Cancelled={"const": True})
BATCH = reply_of(Count={"type": "integer"}, Results={"type": "array", "items": BATCH_ITEM})
_SUMMARY = {"MessageId": STRING, "Status": STRING, "To": STRING, "Role": NULLABLE_STRING, "From": NULLABLE_STRING,
            "Subject": NULLABLE_STRING, "Mode": STRING, "CreatedAt": TIMESTAMP, "UpdatedAt": TIMESTAMP}
EMAILS = reply_of(Messages={"type": "array", "items": shape(**_SUMMARY)}, NextCursor={"type": "integer"},
                  HasMore={"type": "boolean"})
EMAIL = reply_of(Message=shape(**_SUMMARY, Channel=STRING, Body={"type": "object"}), Events={
    "type": "array", "items": shape(Type=STRING, At=TIMESTAMP, Detail={})})


# --- the dashboard (/api/messages*) ---------------------------------------------------------------

def dashboard_summary(message: Message) -> dict[str, Any]:
    return {**summary(message), "Channel": message.channel, "Template": message.template}


def dashboard_detail(message: Message, api_key_id: str | None = None) -> dict[str, Any]:
    """The detail, with ``ApiKeyId``: the key that sent it (``key_...``; null for the composer's
    sends), which ``GET /api/messages?api_key=`` filters by."""
    content = dict(message.content or {})
    if content.get("Attachments"):  # described, never their sealed bytes
        content["Attachments"] = attachments.listed(content)
    return {**detail(message), "Template": message.template, "Content": content, "ApiKeyId": api_key_id,
            "ScheduledAt": iso(message.next_attempt_at) if message.status == "queued" else None}


def composed(outcome: Outcome, recipients: list[str]) -> dict[str, Any]:
    """The composer's 202: one entry per message (a replay answers the original ids)."""
    return {"Messages": [{"MessageId": message_id, "To": recipient, "Status": "queued"}
                         for message_id, recipient in zip(outcome.message_ids, recipients)],
            "ReusedIdempotency": outcome.reused}


_DASHBOARD_SUMMARY = {**_SUMMARY, "Channel": STRING, "Template": NULLABLE_STRING}
MESSAGES = reply_of(Messages={"type": "array", "items": shape(**_DASHBOARD_SUMMARY)},
                    NextCursor=NULLABLE_STRING, HasMore={"type": "boolean"})
MESSAGE = reply_of(Message=shape(**_DASHBOARD_SUMMARY, Body={"type": "object"}, Content={"type": "object"},
                                 ApiKeyId=NULLABLE_STRING),
                   Events={"type": "array", "items": shape(Type=STRING, At=TIMESTAMP, Detail={})})
COMPOSED = reply_of(Messages={"type": "array", "items": shape(MessageId=STRING, To=STRING, Status={"const": "queued"})},
                    ReusedIdempotency={"type": "boolean"})
