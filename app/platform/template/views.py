"""Templates as the contract writes them (``{Template}``, ``{Templates}``)."""

from __future__ import annotations

from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
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


TEMPLATE_SHAPE = shape(
    TemplateId=described(STRING, "The template's id (`tpl_...`)."),
    Slug=described(STRING, "Its name in sends (`Template`)."),
    Channel=described({"enum": ["email", "sms", "push", "whatsapp"]}, "The channel it is for."),
    Name=described(STRING, "A name for people."),
    Subject=described(NULLABLE_STRING, "The subject (e-mail) or title (push), with `{{ variables }}`."),
    Text=described(NULLABLE_STRING, "The text, with `{{ variables }}`."),
    Html=described(NULLABLE_STRING, "The HTML part (e-mail), with `{{ variables }}`."),
    Language=described(STRING, "The language (WhatsApp)."),
    Status=described({"enum": [state.value for state in TemplateState]},
                     "`active` (usable); WhatsApp: `pending` approval, `approved` or `rejected`."),
    StatusReason=described(NULLABLE_STRING, "WhatsApp: why it was rejected, or what it still waits for."),
    Variables=described({"type": "array", "items": STRING}, "The variables its parts use."),
    CreatedAt=described(TIMESTAMP, "When it was made."), UpdatedAt=described(TIMESTAMP, "When it last changed."))
TEMPLATE = reply_of(Template=described(TEMPLATE_SHAPE, "The template."))
TEMPLATES = reply_of(Templates=described({"type": "array", "items": TEMPLATE_SHAPE}, "The account's templates."))
TEMPLATE_PAGE = reply_of(Templates=described({"type": "array", "items": TEMPLATE_SHAPE}, "The account's templates."),
                         NextCursor=described(NULLABLE_STRING,
                                              "Give it as `cursor` for the next page; null on the last one."),
                         HasMore=described({"type": "boolean"}, "Whether there is a next page."))
