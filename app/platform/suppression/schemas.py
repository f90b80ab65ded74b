"""The body of ``PUT /internal/v1/tenants/{account}/suppressions``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body

MAX_BODY_BYTES = 4096


class SuppressionWrite(Body):
    channel: Literal["email", "sms", "push", "whatsapp"]
    address: str = Field(..., min_length=1, max_length=512)
    suppressed: bool
