"""The 202 of ``POST /v1/emails`` (snake_case): the first message's id, every message's (one per
recipient), ``status`` ``queued`` and whether an earlier send with the same idempotency key answered."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, reply_of
from app.mail.email.service import Sent

ACCEPTED = reply_of(id=STRING, ids={"type": "array", "items": STRING}, status={"const": "queued"},
                    reused_idempotency={"type": "boolean"})


def accepted_view(sent: Sent) -> dict[str, Any]:
    return {"id": sent.message_ids[0], "ids": sent.message_ids, "status": "queued",
            "reused_idempotency": sent.reused}
