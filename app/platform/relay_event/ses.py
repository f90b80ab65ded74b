"""Amazon SES events inside a verified SNS notification (app/platform/relay_event/sns.py).

The notification's ``Message`` is SES's JSON: ``notificationType`` (identity notifications) or
``eventType`` (a configuration set's event destination) ``Delivery``, ``Bounce`` (``bounceType``
``Permanent``: hard; ``Transient``/``Undetermined``: soft) or ``Complaint``, with ``mail.messageId``
(the id SendEmail answered) and the recipients concerned; one event per recipient.
"""

from __future__ import annotations

import json

from app.platform.relay_event.apply import RelayEvent
from models.platform.returns import Kind

MAX_RECIPIENTS = 50


def parse(message_text: str) -> list[RelayEvent]:
    try:
        report = json.loads(message_text)
    except ValueError:
        return []
    if not isinstance(report, dict):
        return []
    kind_name = report.get("eventType") or report.get("notificationType")
    mail = report.get("mail") if isinstance(report.get("mail"), dict) else {}
    message_id = mail.get("messageId")
    if not isinstance(message_id, str) or not message_id:
        return []
    if kind_name == "Delivery":
        return [RelayEvent("ses", message_id, Kind.DELIVERED, address)
                for address in _strings(_block(report, "delivery").get("recipients"))]
    if kind_name == "Bounce":
        block = _block(report, "bounce")
        bounce_type = str(block.get("bounceType") or "")
        kind = Kind.HARD if bounce_type == "Permanent" else Kind.SOFT
        events = []
        for entry in _dicts(block.get("bouncedRecipients")):
            status = entry.get("status") if isinstance(entry.get("status"), str) else None
            code = " ".join(part for part in (bounce_type[:20], str(block.get("bounceSubType") or "")[:30],
                                              (status or "")[:12]) if part)
            events.append(RelayEvent("ses", message_id, kind, _string(entry.get("emailAddress")), code=code or None,
                                     detail={"RelayType": bounce_type[:20]}))
        return events
    if kind_name == "Complaint":
        block = _block(report, "complaint")
        feedback = str(block.get("complaintFeedbackType") or "")[:30] or None
        return [RelayEvent("ses", message_id, Kind.COMPLAINT, _string(entry.get("emailAddress")), code=feedback)
                for entry in _dicts(block.get("complainedRecipients"))]
    return []


def _block(report: dict, name: str) -> dict:
    return report.get(name) if isinstance(report.get(name), dict) else {}


def _strings(value) -> list[str]:
    return [item for item in value if isinstance(item, str)][:MAX_RECIPIENTS] if isinstance(value, list) else []


def _dicts(value) -> list[dict]:
    return [item for item in value if isinstance(item, dict)][:MAX_RECIPIENTS] if isinstance(value, list) else []


def _string(value) -> str | None:
    return value if isinstance(value, str) else None
