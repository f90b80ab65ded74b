"""One relay event -> one state move, shared by every relay's callback (docs/relays.md).

A relay names the message by the id it gave when it accepted it (``provider_message_id``, kept by
delivery from the provider's :class:`providers.base.Receipt`). The event acts only on a message of
the account whose callback URL it came to, sent through that relay, to the recipient the event
names, within :data:`models.platform.returns.RETURN_WINDOW`: anything else changes nothing and is
kept as unmatched, like a DSN that names no message of ours. The move itself (state, timeline,
webhook, report counter, suppression) is :func:`models.platform.returns.apply_return`, the one the
DSNs use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http.openapi import STRING, answers, described, reply_of
from models.platform.returns import RETURN_WINDOW, Kind, apply_return, keep_unmatched

# What the timeline says, in plain words, for each kind (the relay's own code is added in brackets).
WORDS = {
    Kind.HARD: "{relay} reports the recipient's mail server refused this address for good{code}; it is now suppressed.",
    Kind.SOFT: "{relay} reports a temporary failure{code}; it keeps trying.",
    Kind.COMPLAINT: "{relay} reports the recipient marked this message as spam{code}; the address is now suppressed.",
    Kind.DELIVERED: "{relay} reports the recipient's mail server accepted the message{code}.",
}
NAMES = {"ses": "Amazon SES", "postmark": "Postmark", "mailgun": "Mailgun", "sendgrid": "SendGrid", "resend": "Resend"}
MAX_CODE = 120


@dataclass(frozen=True)
class RelayEvent:
    """What a relay reported, parsed by the relay's own module. ``code``: the relay's classification
    or SMTP status, short, shown in brackets; ``detail``: timeline fields (PascalCase)."""

    relay: str
    provider_message_id: str
    kind: Kind
    recipient: str | None = None
    code: str | None = None
    detail: dict = field(default_factory=dict)


def plain_words(event: RelayEvent) -> str:
    code = f" ({event.code[:MAX_CODE]})" if event.code else ""
    return WORDS[event.kind].format(relay=NAMES.get(event.relay, event.relay), code=code)


# The callbacks' answer: one outcome per event (app/platform/relay_event/routes.py, sendgrid.py, resend.py).
OUTCOMES = answers({200: reply_of(Outcomes=described(
    {"type": "array", "items": STRING},
    "One outcome per event: bounced, soft_bounce, complained or delivered (the message moved), unchanged (already "
    "past that move), unmatched (no message of the account); [ignored] when nothing applied, [confirming] for an "
    "SNS subscription."))})


async def apply_event(conn: BaseDBAsyncClient, tenant_pk: int, event: RelayEvent) -> str:
    """In the caller's transaction. The outcome: the kind's state when the message moved
    (``bounced``, ``complained``, ``delivered``, ``soft_bounce``), ``unchanged`` when the message is
    ours but already past that move, ``unmatched`` when no message of this account fits."""
    rows = await conn.execute_query_dict(
        "SELECT id, public_id, recipient, provider, created_at FROM messages WHERE tenant_id = $1 "
        "AND channel = 'email' AND provider_message_id = $2 FOR UPDATE",
        [tenant_pk, event.provider_message_id[:255]])
    reason = plain_words(event)
    message = rows[0] if len(rows) == 1 else None
    problem = _mismatch(message, event)
    if problem:
        await keep_unmatched(conn, event.recipient or "", event.kind.value, f"{event.relay}: {problem}",
                             message["public_id"] if message else None)
        return "unmatched"
    detail = {"Kind": event.kind.value, "Relay": event.relay, **event.detail}
    if not await apply_return(conn, message["id"], event.kind, reason, detail):
        return "unchanged"
    return {Kind.HARD: "bounced", Kind.SOFT: "soft_bounce", Kind.COMPLAINT: "complained",
            Kind.DELIVERED: "delivered"}[event.kind]


def _mismatch(message: dict | None, event: RelayEvent) -> str | None:
    if message is None:
        return "no message of this account has this relay's message id"
    if message["provider"] != event.relay:
        return "the message was not sent through this relay"
    if not event.recipient or event.recipient.strip().lower() != (message["recipient"] or "").lower():
        return "the event names another recipient"
    created = message["created_at"]
    if created.tzinfo is None:
        created = created.replace(tzinfo=timezone.utc)
    if datetime.now(timezone.utc) - created > RETURN_WINDOW:
        return "the message is older than the return window"
    return None
