"""Messages as the contract writes them: the 202 of a send, a listing's summary, the detail and
its timeline."""

from __future__ import annotations

from typing import Any

from app.http import errors
from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
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
_REUSED = described({"type": "boolean"}, "True when the `Idempotency-Key` was used before with the same body: "
                                          "the answer is the first send's, nothing new was sent.")
_MESSAGE_ID = described(STRING, "The message's id (`msg_...`).")
_IDS = {"MessageId": described(NULLABLE_STRING, "The first recipient's message id (`msg_...`)."),
        "MessageIds": described({"type": "array", "items": STRING}, "One message id per recipient, in order."),
        "ReusedIdempotency": _REUSED}
_QUEUED = described({"const": "queued"}, "`queued`: accepted, to be sent.")
ACCEPTED = reply_of(**_IDS, Status=_QUEUED)
_INDEX = described({"type": "integer"}, "The item's position in `Messages`, from 0.")
BATCH_ITEM = {"anyOf": [shape(Index=_INDEX, **_IDS),
                        shape("Details", Index=_INDEX, Error=described(shape(
                            "Details", Code=described(STRING, "The error's code (`ValidationError` ...)."),
                            Message=described(STRING, "What went wrong."),
                            Details=described({"type": "object"}, "Each refused field and its reason.")),
                            "Why this item was refused (the others are not affected)."))]}
CANCELLED = reply_of(MessageId=_MESSAGE_ID, Status=described({"const": "failed"}, "`failed`: it will not be sent."),
                     Cancelled=described({"const": True}, "True: the scheduled send was cancelled."))
BATCH = reply_of(Count=described({"type": "integer"}, "How many items the batch had."),
                 Results=described({"type": "array", "items": BATCH_ITEM}, "One result per item, in order."))
_SUMMARY = {"MessageId": _MESSAGE_ID,
            "Status": described(STRING, "`queued`, `sending`, `sent`, `delivered`, `failed`, `bounced` or "
                                        "`complained`."),
            "To": described(STRING, "The recipient."),
            "Role": described(NULLABLE_STRING, "E-mail: how the recipient was addressed (`to`, `cc`, `bcc`)."),
            "From": described(NULLABLE_STRING, "The sender."),
            "Subject": described(NULLABLE_STRING, "The subject (e-mail)."),
            "Mode": described(STRING, "`live` or `test`: the mode of the key that sent it."),
            "CreatedAt": described(TIMESTAMP, "When it was accepted."),
            "UpdatedAt": described(TIMESTAMP, "When its status last changed.")}
_PAGE = {"NextCursor": described({"type": "integer"}, "Give it as `cursor` for the next page."),
         "HasMore": described({"type": "boolean"}, "Whether there is a next page.")}
EMAILS = reply_of(Messages=described({"type": "array", "items": shape(**_SUMMARY)}, "The e-mails, newest first."),
                  **_PAGE)
_EVENTS = described({"type": "array", "items": shape(
    Type=described(STRING, "What happened: `queued` (accepted) first, then the delivery's events."),
    At=described(TIMESTAMP, "When."), Detail=described({}, "More about it (the provider's answer, a bounce's "
                                                          "reason, a scheduled send's `ScheduledAt` ...), or null."))},
    "The message's timeline, oldest first.")
EMAIL = reply_of(Message=described(shape(**_SUMMARY, Channel=described(STRING, "`email`."),
                                         Body=described({"type": "object"}, "The content: `Text` and `Html`.")),
                                   "The e-mail."), Events=_EVENTS)


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


_DASHBOARD_SUMMARY = {**_SUMMARY, "Channel": described(STRING, "The channel: email, sms, push or whatsapp."),
                      "Template": described(NULLABLE_STRING, "The slug of the template it was rendered from; null "
                                                             "when none.")}
MESSAGES = reply_of(Messages=described({"type": "array", "items": shape(**_DASHBOARD_SUMMARY)},
                                       "The account's messages, newest first."),
                    NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                    HasMore=described({"type": "boolean"}, "Whether there is a next page."))
MESSAGE = reply_of(Message=described(shape(
    **_DASHBOARD_SUMMARY, Body=described({"type": "object"}, "The content: `Text` and `Html`."),
    Content=described({"type": "object"}, "The message's whole content as stored (attachments listed, never their "
                                          "bytes)."),
    ApiKeyId=described(NULLABLE_STRING, "The key that sent it (`key_...`); null for the composer's sends.")),
    "The message."), Events=_EVENTS)
COMPOSED = reply_of(
    Messages=described({"type": "array", "items": shape(
        MessageId=_MESSAGE_ID, To=described(STRING, "The recipient."), Status=_QUEUED)},
        "One message per recipient, in the order of `Recipients`."),
    ReusedIdempotency=_REUSED)
