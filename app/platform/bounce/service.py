"""The returns intake's rules: tie a report to the one message its VERP address names, then act.

A report acts only when all hold: it is a DSN or an ARF report (reports.py); the address it was
sent to (the SMTP RCPT, or for an ARF report the reported message's Return-Path) is a VERP return
path with a valid tag (kit/verp.py); that message is an e-mail of ours sent at most
RETURN_WINDOW ago; and the report names that message's recipient (a DSN's Final-Recipient, an
ARF report's Original-Rcpt-To or else the reported message's To and Cc). Then the message moves
as models/platform/returns.py says. Anything else is kept as unmatched and changes nothing.
No Request, no transaction: the caller's connection is a transaction.
"""

from __future__ import annotations

from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.platform.bounce.reports import ARF, DSN, Report, RecipientStatus
from kit import verp
from models.platform.returns import RETURN_WINDOW, Kind, apply_return, classify_status, keep_unmatched

UNMATCHED = "unmatched"
OUTCOMES = {Kind.HARD: "bounced", Kind.COMPLAINT: "complained", Kind.DELIVERED: "delivered", Kind.SOFT: "delayed"}


class Unmatched(Exception):
    def __init__(self, reason: str, message_id: str | None = None):
        super().__init__(reason)
        self.reason, self.message_id = reason, message_id


async def take(conn: BaseDBAsyncClient, recipient: str, report: Report) -> str:
    """Act on ``report`` received for ``recipient``; the outcome (``bounced``, ``complained``,
    ``delivered``, ``delayed`` or ``unmatched``)."""
    try:
        kind, message_pk, reason, detail = await _match(conn, recipient, report)
    except Unmatched as refusal:
        await keep_unmatched(conn, recipient, report.kind, refusal.reason, refusal.message_id)
        return UNMATCHED
    await apply_return(conn, message_pk, kind, reason, detail)
    return OUTCOMES[kind]


async def _match(conn: BaseDBAsyncClient, recipient: str, report: Report) -> tuple[Kind, int, str, dict]:
    if report.kind not in (DSN, ARF):
        raise Unmatched("not a delivery status notification nor a feedback report")
    message_id, valid = verp.named(recipient)
    if message_id is None and report.kind == ARF and report.reported_return_path:
        message_id, valid = verp.named(report.reported_return_path)
    if message_id is None:
        raise Unmatched("not sent to a return-path address")
    if not valid:
        raise Unmatched("the return-path address's tag is not valid", message_id)
    rows = await conn.execute_query_dict(
        "SELECT id, recipient, created_at FROM messages WHERE public_id = $1 AND channel = 'email' FOR UPDATE",
        [message_id])
    if not rows:
        raise Unmatched("no such message", message_id)
    message = rows[0]
    if datetime.now(timezone.utc) - message["created_at"] > RETURN_WINDOW:
        raise Unmatched(f"the message is older than {RETURN_WINDOW.days} days", message_id)
    address = message["recipient"].strip().lower()
    if report.kind == ARF:
        if address not in report.reported_recipients:
            raise Unmatched("the report names another recipient", message_id)
        reason = ("The recipient marked this message as spam (a feedback report"
                  + (f" from {report.reporter}" if report.reporter else "") + "); the address is now suppressed.")
        return Kind.COMPLAINT, message["id"], reason, {
            "Kind": Kind.COMPLAINT.value, "FeedbackType": report.feedback_type, "Reporter": report.reporter}
    found = next((entry for entry in report.recipients if entry.final_recipient == address), None)
    if found is None:
        raise Unmatched("the report's Final-Recipient is another address", message_id)
    kind = classify_status(found.status, found.action)
    if kind is None:
        raise Unmatched(f"Action {found.action!r} with Status {found.status!r} is not acted on", message_id)
    return kind, message["id"], _plain_words(kind, found, report), {
        "Kind": kind.value, "Action": found.action, "Status": found.status, "Diagnostic": found.diagnostic,
        "Reporter": report.reporter}


def _plain_words(kind: Kind, entry: RecipientStatus, report: Report) -> str:
    said = f"status {entry.status}" if entry.status else "no status"
    if entry.diagnostic:
        said += f": {entry.diagnostic}"
    if kind is Kind.HARD:
        return (f"The recipient's mail server could not deliver this message and will not try again ({said}); "
                "the address is now suppressed.")
    if kind is Kind.SOFT:
        return f"The recipient's mail server could not deliver this message yet and keeps trying ({said})."
    return "The recipient's mail server reports this message delivered" + (
        f" ({report.reporter})." if report.reporter else ".")
