"""A contact's consent as the CRM writes it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.http.openapi import NULLABLE_STRING, STRING, reply_of, shape
from kit.timestamps import iso


def consent_view(contact_id: str, channels: dict[str, datetime | None]) -> dict[str, Any]:
    return {"contato_id": contact_id,
            "canais": [{"canal": channel, "recebe": since is None, "descadastrado_em": iso(since, "milliseconds")}
                       for channel, since in channels.items()]}


CONSENT = reply_of(contato_id=STRING, canais={"type": "array", "items": shape(
    canal=STRING, recebe={"type": "boolean"}, descadastrado_em=NULLABLE_STRING)})
