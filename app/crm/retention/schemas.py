"""The retention body: ``dias`` is required, an integer (1 to 36,500) or null (retention off);
absent, it is a malformed request (400)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody

MAX_BODY_BYTES = 1024
MAX_DAYS = 36500


class RetentionWrite(SnakeBody):
    dias: int | None = Field(ge=1, le=MAX_DAYS)
    """Required: contacts created more than this many days ago are anonymized (1 to 36,500); null turns it off."""
