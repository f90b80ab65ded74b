"""Received messages -> the mail API's dicts (snake_case): a listing's summary, and the message read
whole (its text and html, its attachments as links to fetch them)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from app.mail.received import content
from models.mail import ReceivedMessage

_RESULT = "`pass`, `fail`, `none` (no record, or unsigned) or `temperror` (DNS did not answer)"
RESULTS = described(shape(spf=described(STRING, f"SPF: {_RESULT}; also `softfail`, `neutral`, `permerror`."),
                          dkim=described(STRING, f"DKIM: {_RESULT}."), dmarc=described(STRING, f"DMARC: {_RESULT}.")),
                    "What the SMTP server found when the message came in.")
SUMMARY_SHAPE = shape(id=described(STRING, "The received message's id (`rcv_...`)."),
                      mailbox_id=described(STRING, "The mailbox's id (`mbx_...`)."),
                      mailbox=described(STRING, "The mailbox's address."),
                      **{"from": described(STRING, "The From header.")}, to=described(STRING, "The To header."),
                      subject=described(STRING, "The subject."),
                      envelope_from=described(STRING, "The SMTP envelope's sender (MAIL FROM)."),
                      recipient=described(STRING, "The SMTP envelope's recipient (RCPT TO)."),
                      size=described({"type": "integer"}, "The message's size in bytes."), authentication=RESULTS,
                      received_at=described(TIMESTAMP, "When it arrived."))
ATTACHMENT_SHAPE = shape(index=described({"type": "integer"}, "Its position among the attachments, from 0."),
                         filename=described(NULLABLE_STRING, "Its file name, as the sender gave it."),
                         content_type=described(STRING, "Its MIME type, as the sender gave it."),
                         size=described({"type": "integer"}, "Its size in bytes."),
                         url=described(STRING, "Where to download it (always as a download)."))
MESSAGE_SHAPE = {**SUMMARY_SHAPE, "properties": {
    **SUMMARY_SHAPE["properties"], "date": described(STRING, "The Date header."),
    "message_id": described(STRING, "The Message-ID header."),
    "text": described(NULLABLE_STRING, "The plain-text body."),
    "html": described(NULLABLE_STRING, "The HTML body, the sender's as it came: never show it in your own page."),
    "attachments": described({"type": "array", "items": ATTACHMENT_SHAPE}, "Its attachments.")}}
LISTING = reply_of(messages=described({"type": "array", "items": SUMMARY_SHAPE}, "The messages, newest first."),
                   next_cursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page."),
                   has_more=described({"type": "boolean"}, "Whether there is a next page."))
MESSAGE = reply_of(message=described(MESSAGE_SHAPE, "The message."))
_ACCOUNT = described(STRING, "The id of the account the mailbox belongs to.")
_MAILBOX = described(STRING, "The mailbox's id (`mbx_...`).")
STORED = reply_of(Id=described(STRING, "The received message's id (`rcv_...`)."), Account=_ACCOUNT, Mailbox=_MAILBOX,
                  Stored=described({"type": "boolean"},
                                   "True when stored now; false when this mailbox already held the same message."))
RECIPIENT = reply_of(Account=_ACCOUNT, Mailbox=_MAILBOX,
                     Address=described(STRING, "The mailbox's address, which receives at the address asked."))


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
