"""Moments as Herald writes them: ISO 8601 in UTC with a ``Z``; the one ``iso()``."""

from __future__ import annotations

from datetime import datetime, timezone


def iso(moment: datetime | None, timespec: str = "auto") -> str | None:
    """``moment`` in UTC, ``2026-10-07T12:00:00.123Z`` for ``timespec="milliseconds"``; None stays None."""
    if moment is None:
        return None
    return moment.astimezone(timezone.utc).isoformat(timespec=timespec).replace("+00:00", "Z")
