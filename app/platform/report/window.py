"""The time window of a report: ``from`` and ``to`` as the contract reads them.

Either an ISO 8601 date (``2026-11-01``) or an RFC 3339 moment with its offset
(``2026-11-01T12:00:00Z``, ``...+01:00``). ``to`` is exclusive and defaults to now; a date-only
``to`` covers its whole day (the window ends at the next midnight UTC). ``from`` defaults to 30
days before ``to``; a date-only ``from`` starts at midnight UTC. ``from`` after ``to`` is 422.
Counters are hourly, so a moment inside an hour counts that hour's traffic from the hour's start.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from app.http import errors

DEFAULT_DAYS = 30
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$")
EARLIEST = datetime(2000, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(2200, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime

    @property
    def span(self) -> timedelta:
        return self.end - self.start


def _invalid(name: str) -> errors.Unprocessable:
    return errors.Unprocessable(f"Query parameter {name!r} must be an ISO 8601 date (2026-11-01) or an RFC 3339 "
                                "time with its offset (2026-11-01T12:00:00Z).",
                                details={name: "ISO 8601 date or RFC 3339 time"})


def _parse(name: str, raw: str) -> tuple[datetime, bool]:
    """(moment, date_only)."""
    text = raw.strip()
    try:
        if _DATE.match(text):
            day = datetime.strptime(text, "%Y-%m-%d")
            return day.replace(tzinfo=timezone.utc), True
        if _MOMENT.match(text):
            text = text.replace("z", "Z").replace("Z", "+00:00").replace("t", "T").replace(" ", "T")
            fraction = re.search(r"\.(\d+)", text)
            if fraction and len(fraction.group(1)) > 6:  # Python reads at most microseconds
                text = text.replace(fraction.group(0), "." + fraction.group(1)[:6])
            moment = datetime.fromisoformat(text).astimezone(timezone.utc)
            return moment, False
    except (ValueError, OverflowError):
        pass
    raise _invalid(name)


def _check_range(name: str, moment: datetime) -> None:
    if not EARLIEST <= moment <= LATEST:
        raise errors.Unprocessable(f"Query parameter {name!r} must be between 2000 and 2200.",
                                   details={name: "between 2000-01-01 and 2200-01-01"})


def bounds(raw_from: str | None, raw_to: str | None) -> tuple[datetime | None, datetime | None]:
    """``from`` and ``to`` as given, each None when absent: the reports' reading (a date-only ``to``
    covers its whole day), their range check and their order check. Lists that filter by time
    (``GET /api/messages``) default to no bound at all."""
    start = end = from_day = to_day = None
    if raw_to:
        end, date_only = _parse("to", raw_to)
        if date_only:
            to_day = end
            end += timedelta(days=1)
    if raw_from:
        start, date_only = _parse("from", raw_from)
        from_day = start if date_only else None
    for name, moment in (("from", start), ("to", end)):
        if moment is not None:
            _check_range(name, moment)
    # Two dates compare as dates (from 02-02 to 02-01 is refused although 02-01 covers its whole day).
    if start is not None and end is not None and (
            start > end or (from_day is not None and to_day is not None and from_day > to_day)):
        raise errors.Unprocessable("'from' must not be after 'to'.", details={"from": "after 'to'"})
    return start, end


def window(raw_from: str | None, raw_to: str | None, now: datetime | None = None) -> Window:
    start, end = bounds(raw_from, raw_to)
    end = end if end is not None else (now or datetime.now(timezone.utc))
    if start is None:
        start = end - timedelta(days=DEFAULT_DAYS)
        _check_range("from", start)
    if start > end:  # a given from after the default to (now)
        raise errors.Unprocessable("'from' must not be after 'to'.", details={"from": "after 'to'"})
    return Window(start, end)
