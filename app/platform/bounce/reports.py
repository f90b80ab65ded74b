"""Reading what comes back to a return path, with the standard library's email package.

- A delivery status notification (RFC 3464): ``multipart/report; report-type=delivery-status``
  whose ``message/delivery-status`` part holds a block of per-message fields (Reporting-MTA) and a
  block per recipient (Final-Recipient, Action, Status, Diagnostic-Code).
- A feedback report (RFC 5965, ARF): ``multipart/report; report-type=feedback-report`` whose
  ``message/feedback-report`` part holds Feedback-Type, User-Agent, Original-Rcpt-To, ...; the
  reported message follows as ``message/rfc822`` or ``text/rfc822-headers``.

Everything here is a stranger's text: nothing raises on a malformed message (it is ``unknown``),
addresses are compared lower-cased, and what a remote server wrote is kept to one short line.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import HeaderParser
from email.utils import getaddresses, parseaddr

DSN = "dsn"
ARF = "arf"
UNKNOWN = "unknown"
# Blocks of fields in a report part, and the lines kept of what a remote server wrote.
MAX_BLOCKS = 100
MAX_TEXT = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class RecipientStatus:
    """One per-recipient block of a DSN."""

    final_recipient: str | None
    action: str
    status: str | None
    diagnostic: str | None


@dataclass
class Report:
    kind: str
    reporter: str | None = None
    recipients: list[RecipientStatus] = field(default_factory=list)
    # ARF: the feedback type and the recipients the report names (Original-Rcpt-To, else the
    # reported message's To and Cc); its Return-Path (a VERP address when it was ours).
    feedback_type: str | None = None
    reported_recipients: list[str] = field(default_factory=list)
    reported_return_path: str | None = None


def one_line(value: object, limit: int = MAX_TEXT) -> str | None:
    if value is None:
        return None
    text = _CONTROL.sub(" ", str(value)).strip()
    return text[:limit] or None


def _address(value: object) -> str | None:
    """``rfc822; a@b`` (a DSN's address type first) or ``<a@b>``: the bare address, lower case."""
    text = one_line(value, 600) or ""
    if ";" in text:
        text = text.split(";", 1)[1]
    found = parseaddr(text.strip())[1].strip().lower()
    return found or None


def _blocks(part: Message) -> list[Message]:
    """The field blocks of a ``message/*`` report part, however the parser left them."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [block for block in payload if isinstance(block, Message)][:MAX_BLOCKS]
    text = part.get_payload(decode=True) or b""
    chunks = re.split(r"\r?\n\r?\n", text.decode("utf-8", "replace"))
    return [HeaderParser().parsestr(chunk.strip() + "\n") for chunk in chunks if chunk.strip()][:MAX_BLOCKS]


def _reported_headers(part: Message) -> Message | None:
    if part.get_content_type() == "message/rfc822":
        payload = part.get_payload()
        return payload[0] if isinstance(payload, list) and payload and isinstance(payload[0], Message) else None
    if part.get_content_type() == "text/rfc822-headers":
        text = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
        return HeaderParser().parsestr(text)
    return None


def _dsn(report: Report, part: Message) -> None:
    blocks = _blocks(part)
    if not blocks:
        return
    report.reporter = one_line(blocks[0].get("Reporting-MTA"))
    for block in blocks[1:] if len(blocks) > 1 else blocks:
        action = (one_line(block.get("Action")) or "").lower()
        if not action:
            continue
        status = one_line(block.get("Status"), 16)
        report.recipients.append(RecipientStatus(
            _address(block.get("Final-Recipient")), action, status.split()[0] if status else None,
            one_line(block.get("Diagnostic-Code"))))


def _arf(report: Report, part: Message) -> None:
    blocks = _blocks(part)
    if not blocks:
        return
    fields = blocks[0]
    report.feedback_type = (one_line(fields.get("Feedback-Type"), 40) or "").lower() or None
    report.reporter = one_line(fields.get("Reporting-MTA") or fields.get("User-Agent"))
    for value in (fields.get_all("Original-Rcpt-To") or [])[:MAX_BLOCKS]:
        found = _address(value)
        if found:
            report.reported_recipients.append(found)


def parse(raw: bytes) -> Report:
    """What ``raw`` (an RFC 5322 message) reports; ``kind`` ``unknown`` for anything else."""
    try:
        message = email.message_from_bytes(raw, policy=email.policy.compat32)
        return _parse(message)
    except Exception:  # noqa: BLE001 - a stranger's bytes: whatever breaks the parser is not a report
        return Report(UNKNOWN)


def _parse(message: Message) -> Report:
    if message.get_content_type() != "multipart/report":
        return Report(UNKNOWN)
    report_type = (message.get_param("report-type") or "")
    report_type = str(report_type).strip().lower()
    kind = {"delivery-status": DSN, "feedback-report": ARF}.get(report_type)
    if kind is None:
        return Report(UNKNOWN)
    report = Report(kind)
    reported: Message | None = None
    for part in message.walk():
        content_type = part.get_content_type()
        if kind == DSN and content_type in ("message/delivery-status", "message/global-delivery-status"):
            _dsn(report, part)
        elif kind == ARF and content_type == "message/feedback-report":
            _arf(report, part)
        elif reported is None and content_type in ("message/rfc822", "text/rfc822-headers"):
            reported = _reported_headers(part)
    if kind == ARF and reported is not None:
        report.reported_return_path = _address(reported.get("Return-Path"))
        if not report.reported_recipients:
            pairs = getaddresses([str(value) for value in (reported.get_all("To") or []) + (reported.get_all("Cc") or [])])
            report.reported_recipients = [address.lower() for _, address in pairs if address][:MAX_BLOCKS]
    if kind == DSN and not report.recipients:
        return Report(UNKNOWN)
    return report
