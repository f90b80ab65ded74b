"""A stored message opened: the summary kept sealed beside it, and the parts a reader asks for
(text, html, attachments), parsed with the standard library's ``email`` (policy.default)."""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from kit.sealing import Sealer
from models.mail.received import open_summary, seal_summary  # noqa: F401  (the summary's sealing is the model's)

SEALER = Sealer("mail")
MESSAGE = "received-message"
# Header values kept in the summary are cut here: the summary is a listing's, not the message.
SUMMARY_CHARS = 998


@dataclass(frozen=True)
class Attachment:
    index: int
    filename: str | None
    content_type: str
    content: bytes


def parse(raw: bytes) -> EmailMessage:
    return email.message_from_bytes(raw, policy=email.policy.default)  # type: ignore[return-value]


def header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except (ValueError, IndexError, TypeError):  # a header the parser cannot read: empty, not a crash
        value = None
    return str(value or "")[:SUMMARY_CHARS]


def summary(raw: bytes, mail_from: str, recipient: str) -> dict[str, Any]:
    message = parse(raw)
    return {"from": header(message, "From"), "to": header(message, "To"), "subject": header(message, "Subject"),
            "date": header(message, "Date"), "message_id": header(message, "Message-ID"),
            "envelope_from": mail_from, "recipient": recipient}


def body_of(message: EmailMessage, kind: str) -> str | None:
    try:
        part = message.get_body((kind,))
        return part.get_content() if part is not None else None
    except (LookupError, ValueError, AttributeError):  # an unknown charset, a broken part
        return None


def attachments(message: EmailMessage) -> list[Attachment]:
    found = []
    for index, part in enumerate(message.iter_attachments()):
        try:
            content = part.get_payload(decode=True) or b""
        except (ValueError, AttributeError):
            content = b""
        found.append(Attachment(index, part.get_filename(), part.get_content_type(), content))
    return found


def seal_message(raw: bytes) -> bytes:
    return SEALER.seal(MESSAGE, raw)


def open_message(sealed: bytes) -> bytes:
    return SEALER.unseal(MESSAGE, sealed)


