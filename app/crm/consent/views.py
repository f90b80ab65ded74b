"""A contact's consent as the CRM writes it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, described, reply_of, shape
from kit.timestamps import iso


def consent_view(contact_id: str, channels: dict[str, datetime | None]) -> dict[str, Any]:
    return {"contato_id": contact_id,
            "canais": [{"canal": channel, "recebe": since is None, "descadastrado_em": iso(since, "milliseconds")}
                       for channel, since in channels.items()]}


CONSENT = reply_of(
    contato_id=described(STRING, "The contact's id."),
    canais=described({"type": "array", "items": shape(
        canal=described(STRING, "The channel: `email`, `sms`, `push` or `whatsapp`."),
        recebe=described({"type": "boolean"}, "Whether the contact receives on it (false once opted out)."),
        descadastrado_em=described(NULLABLE_STRING, "When it opted out (RFC 3339, to the millisecond), or null."))},
        "The contact's consent, channel by channel."))
