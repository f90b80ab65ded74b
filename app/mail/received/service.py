"""The rules of received mail. Every read is filtered by the account (and live mailboxes only), so
another account's message answers 404 like a missing one.

Who receives: a live mailbox, at its own address or at the same local part on the domain's receiving
subdomain (``ana@inbound.brand.example`` is ``ana@brand.example``'s; the apex's MX stays the
account's own). A mailbox holds at most ``quota_bytes`` of received mail (MAILBOX_QUOTA_MB)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from kit.actors import Actor
from app.mail.received import content
from models.mail import Mailbox, ReceivedMessage
from models.outbox import enqueue

RECEIVING_PREFIX = "inbound."
MAX_ID_LENGTH = 40
_USED = "SELECT COALESCE(SUM(size), 0) AS used FROM received_messages WHERE mailbox_id = $1"


class MailboxFull(errors.Unprocessable):
    code = "MailboxFull"
    message = "The mailbox has no room left for this message."


@dataclass(frozen=True)
class Incoming:
    recipient: str
    mail_from: str
    raw: bytes
    spf: str = "none"
    dkim: str = "none"
    dmarc: str = "none"


def mailbox_address(recipient: str) -> str:
    """The mailbox address a recipient names: the receiving subdomain folded onto its domain."""
    local, _, domain = recipient.strip().lower().rpartition("@")
    if domain.startswith(RECEIVING_PREFIX):
        domain = domain[len(RECEIVING_PREFIX):]
    return f"{local}@{domain}"


async def recipient_mailbox(conn: BaseDBAsyncClient, recipient: str) -> Mailbox:
    address = mailbox_address(recipient)
    if not address.startswith("@") and len(address) <= 254:
        found = await Mailbox.filter(address=address, live=True).using_db(conn).first()
        if found is not None:
            return found
    raise errors.NotFound("No mailbox receives mail at this address.")


async def store(conn: BaseDBAsyncClient, incoming: Incoming, quota_bytes: int) -> tuple[ReceivedMessage, bool]:
    """The stored message and whether it is new (False: the same message for this mailbox, again).
    ``conn`` is a transaction: a new message and the job that tells the account's webhooks
    (``email.received``) commit together. Deliveries of one message to one mailbox take turns (an
    advisory lock on the pair), so a retry never stores it twice nor meets a unique-key error."""
    mailbox = await recipient_mailbox(conn, incoming.recipient)
    digest = hashlib.sha256(incoming.raw).hexdigest()
    await conn.execute_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [f"received:{mailbox.id}:{digest}"])
    again = await ReceivedMessage.filter(mailbox_id=mailbox.id, digest=digest).using_db(conn).first()
    if again is not None:
        again.mailbox = mailbox
        return again, False
    [row] = await conn.execute_query_dict(_USED, [mailbox.id])
    used = int(row["used"])
    if used + len(incoming.raw) > quota_bytes:
        raise MailboxFull(f"{mailbox.address} holds {used} bytes of its {quota_bytes}; this message does not fit.")
    summary = content.summary(incoming.raw, incoming.mail_from, incoming.recipient)
    row = await ReceivedMessage.create(
        tenant_id=mailbox.tenant_id, mailbox_id=mailbox.id, digest=digest,
        sealed_message=content.seal_message(incoming.raw), sealed_summary=content.seal_summary(summary),
        size=len(incoming.raw), spf=incoming.spf, dkim=incoming.dkim, dmarc=incoming.dmarc, using_db=conn)
    await enqueue(conn, Actor.MAIL_RECEIVED_ANNOUNCE, row.id)
    row.mailbox = mailbox
    return row, True


def listing(tenant_id: str, mailbox: Mailbox | None):
    query = ReceivedMessage.filter(tenant_id=tenant_id, mailbox__live=True)
    return query.filter(mailbox_id=mailbox.id) if mailbox is not None else query


async def find(conn: BaseDBAsyncClient, tenant_id: str, received_id: str) -> ReceivedMessage:
    if len(received_id) <= MAX_ID_LENGTH:
        found = await (ReceivedMessage.filter(public_id=received_id, tenant_id=tenant_id, mailbox__live=True)
                       .using_db(conn).prefetch_related("mailbox").first())
        if found is not None:
            return found
    raise errors.NotFound("No such received message.")


async def remove(conn: BaseDBAsyncClient, tenant_id: str, received_id: str) -> None:
    found = await find(conn, tenant_id, received_id)
    await ReceivedMessage.filter(id=found.id).using_db(conn).delete()


def attachment(row: ReceivedMessage, index: int) -> content.Attachment:
    found = content.attachments(content.parse(content.open_message(row.sealed_message)))
    if not 0 <= index < len(found):
        raise errors.NotFound("No such attachment.")
    return found[index]
