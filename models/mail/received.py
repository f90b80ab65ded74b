"""Messages received for mailboxes (Herald's SMTP server hands them to the mail system, which owns
them): the raw message and its summary sealed at rest (kit sealing, the mail system's own keys), the
SPF/DKIM/DMARC results as judged when it came in, kept :data:`RETENTION_DAYS` days.

``digest`` (SHA-256 of the raw message) is unique per mailbox: an SMTP client that retries after a
451 (another recipient of the same message failed) stores nothing twice."""

from __future__ import annotations

import secrets
from typing import Any

from tortoise import fields
from tortoise.models import Model

from kit.sealing import Sealer
from kit.timestamps import iso

RETENTION_DAYS = 30
# What the results may say (RFC 8601's words); "none" is also what an unchecked result records.
RESULTS = ("pass", "fail", "neutral", "none", "temperror", "permerror", "softfail", "policy")


# The summary (from, to, subject, envelope) is sealed beside the message: read by the mail API's
# listings and by the worker that tells the account's webhooks (tasks/mail/received.py).
SEALER = Sealer("mail")
SUMMARY_PURPOSE = "received-summary"


def seal_summary(value: dict[str, Any]) -> str:
    return SEALER.seal_json(SUMMARY_PURPOSE, value)


def open_summary(sealed: str) -> dict[str, Any]:
    return SEALER.unseal_json(SUMMARY_PURPOSE, sealed)


def new_received_id() -> str:
    return f"rcv_{secrets.token_hex(12)}"


class ReceivedMessage(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True, default=new_received_id)
    tenant_id = fields.CharField(max_length=40)
    mailbox = fields.ForeignKeyField("mail.Mailbox", related_name="received", on_delete=fields.CASCADE)
    digest = fields.CharField(max_length=64)
    # AES-GCM of the raw message (bytes) and of its summary (JSON text: from, to, subject, envelope).
    sealed_message = fields.BinaryField()
    sealed_summary = fields.TextField()
    size = fields.IntField()
    spf = fields.CharField(max_length=16, default="none")
    dkim = fields.CharField(max_length=16, default="none")
    dmarc = fields.CharField(max_length=16, default="none")
    received_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "received_messages"
        app = "mail"
        unique_together = (("mailbox", "digest"),)
        indexes = (("tenant_id", "received_at"),)


# One batch of the retention sweep (schedules/mail/received.py): oldest first, a bounded delete so a
# backlog never holds a long transaction.
PRUNE_BATCH = 1000
PRUNE_SQL = (f"DELETE FROM received_messages WHERE id IN (SELECT id FROM received_messages "
             f"WHERE received_at < now() - interval '{RETENTION_DAYS} days' ORDER BY id LIMIT {PRUNE_BATCH})")


def event_data(row: ReceivedMessage, mailbox_id: str, mailbox: str, mail_url: str) -> dict[str, Any]:
    """The ``Data`` of the ``email.received`` webhook event: who wrote to which mailbox, what the
    authentication checks found, and where the mail API serves the message (with a key of the account)."""
    summary = open_summary(row.sealed_summary)
    return {"ReceivedId": row.public_id, "MailboxId": mailbox_id, "Mailbox": mailbox,
            "From": summary.get("from", ""), "To": summary.get("to", ""), "Subject": summary.get("subject", ""),
            "EnvelopeFrom": summary.get("envelope_from", ""), "Recipient": summary.get("recipient", ""),
            "Size": row.size, "Authentication": {"Spf": row.spf, "Dkim": row.dkim, "Dmarc": row.dmarc},
            "ReceivedAt": iso(row.received_at), "Url": f"{mail_url.rstrip('/')}/v1/received/{row.public_id}"}
