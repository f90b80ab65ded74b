"""The consent body: ``recebe`` (required boolean: its absence is a 422, contract F rule 2) and an
optional ``canal`` (absent: every known channel)."""

from __future__ import annotations

from typing import Literal

from app.http import errors
from app.http.bodies import SnakeBody
from models.crm.consent import CHANNELS

MAX_BODY_BYTES = 4096


class ConsentWrite(SnakeBody):
    recebe: bool | None = None
    """Required: true removes the opt-out, false writes it (both idempotent)."""
    canal: Literal["email", "sms", "push", "whatsapp"] | None = None
    """The channel (`email`, `sms`, `push`, `whatsapp`); without it, every channel."""

    def decided(self) -> tuple[bool, tuple[str, ...]]:
        """(receives, the channels it applies to); 422 without ``recebe``."""
        if self.recebe is None:
            raise errors.Unprocessable("recebe is required: true to receive, false to opt out.",
                                       details={"recebe": "required boolean"})
        return self.recebe, (self.canal,) if self.canal else CHANNELS
