"""Sending as a mailbox: ``from`` must be a mailbox of the account (of the caller's mode), else 422
``CaixaRemetenteInexistente``; then the message goes through the platform's internal send route, the
one accept path of ``/v1/emails/send`` (rules, the verified-domain check, idempotency, quota, the
outbox and DKIM at delivery), in the caller's mode: an ``sk_test_`` key's mail reaches the sinks."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.services import ServiceClient
from app.mail.caller import Caller
from app.mail.email.schemas import EmailCreate
from app.mail.errors import NoSuchSenderMailbox
from app.mail.mailbox import service as mailboxes
from app.mail.platform import relayed, send_path

PASSED_ON = frozenset({errors.VerificationUnavailable.code})

_SPECIALS = set('()<>@,;:\\".[]')


@dataclass(frozen=True)
class Sent:
    message_ids: list[str]
    reused: bool


def from_header(display: str, address: str) -> str:
    """``Name <address>``, the name quoted when RFC 5322 asks it (the platform re-encodes it)."""
    if not display:
        return address
    if any(character in _SPECIALS for character in display):
        display = '"' + display.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{display} <{address}>"


async def send(conn: BaseDBAsyncClient, platform: ServiceClient, caller: Caller, body: EmailCreate,
               idempotency_key: str | None) -> Sent:
    display, address = parseaddr(body.from_)
    mailbox = await mailboxes.by_address(conn, caller, address)
    if mailbox is None:
        raise NoSuchSenderMailbox(f"{address.lower()} is not a mailbox of this account; create it first "
                                        "(POST /v1/mailboxes).")
    payload: dict[str, Any] = {
        "Channel": "email", "Recipients": body.recipients(),
        "From": from_header(display or mailbox.display_name or "", mailbox.address),
        "Subject": body.subject, "Text": body.text, "Html": body.html, "Mode": caller.mode}
    if body.reply_to:
        payload["ReplyTo"] = [body.reply_to] if isinstance(body.reply_to, str) else list(body.reply_to)
    if body.headers:
        payload["Headers"] = body.headers
    if body.attachments:
        payload["Attachments"] = [{"Filename": item.filename, "Content": item.content,
                                   **({"ContentType": item.content_type} if item.content_type else {})}
                                  for item in body.attachments]
    if body.scheduled_at is not None:
        payload["ScheduledAt"] = body.scheduled_at
    if body.tags:
        payload["Tags"] = body.tags
    if idempotency_key is not None:
        payload["IdempotencyKey"] = idempotency_key
    # The platform's 503 VerificacaoIndisponivel is its answer, not its outage: passed on as it gave it.
    answer = await platform.request("POST", send_path(caller.tenant_id), json=payload,
                                    outage=errors.ServiceUnavailable, answered=PASSED_ON)
    if not answer.ok:
        raise relayed(answer)
    return Sent([item["MessageId"] for item in answer.body["Messages"]], bool(answer.body.get("ReusedIdempotency")))
