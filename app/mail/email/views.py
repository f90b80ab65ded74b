"""The 202 of ``POST /v1/emails`` (snake_case): the first message's id, every message's (one per
recipient), ``status`` ``queued`` and whether an earlier send with the same idempotency key answered."""

from __future__ import annotations

from typing import Any

from app.http.openapi import STRING, described, reply_of
from app.mail.email.service import Sent

ACCEPTED = reply_of(id=described(STRING, "The first recipient's message id (`msg_...`)."),
                    ids=described({"type": "array", "items": STRING}, "One message id per recipient, in order."),
                    status=described({"const": "queued"}, "`queued`: accepted, to be sent."),
                    reused_idempotency=described({"type": "boolean"}, "True when the idempotency key was used "
                                                 "before: the first send's messages, nothing sent again."))


def accepted_view(sent: Sent) -> dict[str, Any]:
    return {"id": sent.message_ids[0], "ids": sent.message_ids, "status": "queued",
            "reused_idempotency": sent.reused}
