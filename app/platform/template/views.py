"""Templates as the contract writes them (``{Template}``, ``{Templates}``)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.platform.template.service import variables_of
from kit.timestamps import iso
from models.platform.template import Template, TemplateState


def template_view(template: Template) -> dict[str, Any]:
    return {
        "TemplateId": template.public_id,
        "Slug": template.slug,
        "Channel": template.channel,
        "Name": template.name,
        "Subject": template.subject,
        "Text": template.text,
        "Html": template.html,
        "Language": template.language,
        "Status": template.status,
        # WhatsApp: why a template is rejected, or what it still waits for (null otherwise).
        "StatusReason": template.status_reason if template.channel == "whatsapp" else None,
        "Variables": variables_of(template),
        "CreatedAt": iso(template.created_at),
        "UpdatedAt": iso(template.updated_at),
    }


TEMPLATE_SHAPE = shape(TemplateId=STRING, Slug=STRING, Channel={"enum": ["email", "sms", "push", "whatsapp"]},
                       Name=STRING, Subject=NULLABLE_STRING, Text=NULLABLE_STRING, Html=NULLABLE_STRING,
                       Language=STRING, Status={"enum": [state.value for state in TemplateState]}, StatusReason=NULLABLE_STRING,
                       Variables={"type": "array", "items": STRING}, CreatedAt=TIMESTAMP, UpdatedAt=TIMESTAMP)
TEMPLATE = reply_of(Template=TEMPLATE_SHAPE)
TEMPLATES = reply_of(Templates={"type": "array", "items": TEMPLATE_SHAPE})
TEMPLATE_PAGE = reply_of(Templates={"type": "array", "items": TEMPLATE_SHAPE}, NextCursor=NULLABLE_STRING,
                         HasMore={"type": "boolean"})
