"""Received messages -> the mail API's dicts (snake_case): a listing's summary, and the message read
whole (its text and html, its attachments as links to fetch them)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from app.mail.received import content
from models.mail import ReceivedMessage

RESULTS = shape(spf=STRING, dkim=STRING, dmarc=STRING)
SUMMARY_SHAPE = shape(id=STRING, mailbox_id=STRING, mailbox=STRING, **{"from": STRING}, to=STRING, subject=STRING,
                      envelope_from=STRING, recipient=STRING, size={"type": "integer"}, authentication=RESULTS,
                      received_at=TIMESTAMP)
ATTACHMENT_SHAPE = shape(index={"type": "integer"}, filename=NULLABLE_STRING, content_type=STRING,
                         size={"type": "integer"}, url=STRING)
MESSAGE_SHAPE = {**SUMMARY_SHAPE, "properties": {
    **SUMMARY_SHAPE["properties"], "date": STRING, "message_id": STRING, "text": NULLABLE_STRING,
    "html": NULLABLE_STRING, "attachments": {"type": "array", "items": ATTACHMENT_SHAPE}}}
LISTING = reply_of(messages={"type": "array", "items": SUMMARY_SHAPE}, next_cursor=NULLABLE_STRING,
                   has_more={"type": "boolean"})
MESSAGE = reply_of(message=MESSAGE_SHAPE)
STORED = reply_of(Id=STRING, Account=STRING, Mailbox=STRING, Stored={"type": "boolean"})
RECIPIENT = reply_of(Account=STRING, Mailbox=STRING, Address=STRING)


def summary_view(row: ReceivedMessage) -> dict[str, Any]:
    summary = content.open_summary(row.sealed_summary)
    return {"id": row.public_id, "mailbox_id": row.mailbox.public_id, "mailbox": row.mailbox.address,
            "from": summary.get("from", ""), "to": summary.get("to", ""), "subject": summary.get("subject", ""),
            "envelope_from": summary.get("envelope_from", ""), "recipient": summary.get("recipient", ""),
            "size": row.size, "authentication": {"spf": row.spf, "dkim": row.dkim, "dmarc": row.dmarc},
            "received_at": iso(row.received_at)}


def message_view(row: ReceivedMessage) -> dict[str, Any]:
    summary = content.open_summary(row.sealed_summary)
    message = content.parse(content.open_message(row.sealed_message))
    return {**summary_view(row), "date": summary.get("date", ""), "message_id": summary.get("message_id", ""),
            "text": content.body_of(message, "plain"), "html": content.body_of(message, "html"),
            "attachments": [{"index": part.index, "filename": part.filename, "content_type": part.content_type,
                             "size": len(part.content),
                             "url": f"/v1/received/{row.public_id}/attachments/{part.index}"}
                            for part in content.attachments(message)]}
