"""Reading the security trail: newest first, keyset pages (``before`` is the id of the last event
seen; an id that is not one of the person's events is refused, never answered with another's)."""

from __future__ import annotations

from app.identity import errors
from models.identity import SecurityEvent

DEFAULT_LIMIT = 20
MAX_LIMIT = 100


async def page(user_id: int, before: str | None, limit: int) -> tuple[list[SecurityEvent], bool]:
    query = SecurityEvent.filter(user_id=user_id)
    if before:
        anchor = await SecurityEvent.filter(user_id=user_id, public_id=before[:40]).values_list("id", flat=True)
        if not anchor:
            raise errors.InvalidInput("'before' is not an event of this trail.", details={"before": "unknown event"})
        query = query.filter(id__lt=anchor[0])
    rows = await query.order_by("-id").limit(limit + 1)
    return rows[:limit], len(rows) > limit
