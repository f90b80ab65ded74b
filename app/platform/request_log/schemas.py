"""The query string of GET /v1/logs: the window, the page size, the direction of a cursor and the
filters, each refused with a 400 that names the parameter (the log routes' own envelope)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sanic import Request

from app.http import errors
from app.platform.request_log.service import MODES, LogFilters

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
DEFAULT_WINDOW = timedelta(hours=24)
MAX_WINDOW = timedelta(days=31)
STATUS_CLASSES = {"2xx": 2, "3xx": 3, "4xx": 4, "5xx": 5}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "SMTP")  # SMTP: a submission
FILTERS = ("status_class", "status", "method", "path", "api_key_id", "error_code", "idempotency_key", "message_id",
           "mode", "since", "until", "limit", "after", "before",
           "tenant_id")  # accepted and discarded: the tenant is the key's


def invalid(name: str, reason: str) -> errors.ValidationError:
    return errors.ValidationError(f"Query parameter {name!r} {reason}.", details={name: reason})


def _timestamp(request: Request, name: str) -> datetime | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    try:
        moment = datetime.fromisoformat(raw.strip().replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise invalid(name, "must be an RFC 3339 date-time such as 2026-10-07T12:00:00Z") from None
    if moment.tzinfo is None:
        raise invalid(name, "must carry a time zone offset (RFC 3339), for example Z")
    return moment.astimezone(timezone.utc)


def window(request: Request, now: datetime) -> tuple[datetime, datetime]:
    """``since`` and ``until``: the last 24 hours by default, never longer than 31 days (a longer
    window is cut to 31 days before ``until``)."""
    since, until = _timestamp(request, "since"), _timestamp(request, "until")
    until = until or now
    since = since or until - DEFAULT_WINDOW
    if since > until:
        raise invalid("since", "must not be later than until")
    return max(since, until - MAX_WINDOW), until


def limit(request: Request) -> int:
    raw = request.args.get("limit")
    if raw is None or raw == "":
        return DEFAULT_LIMIT
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise invalid("limit", f"must be an integer between 1 and {MAX_LIMIT}")
    return value


def cursor(request: Request) -> tuple[str, str] | None:
    """(``after`` or ``before``, the token), or None for the first page."""
    after, before = request.args.get("after"), request.args.get("before")
    if after and before:
        raise errors.InvalidCursor("Use either after or before, not both.")
    if after:
        return "after", after
    if before:
        return "before", before
    return None


def filters(request: Request) -> LogFilters:
    args = request.args
    found: dict = {}
    if raw := args.get("status_class"):
        classes = [part.strip().lower() for part in raw.split(",") if part.strip()]
        if not classes or any(part not in STATUS_CLASSES for part in classes):
            raise invalid("status_class", "must be 2xx, 3xx, 4xx or 5xx (comma separated)")
        found["status_classes"] = tuple(STATUS_CLASSES[part] for part in classes)
    if (raw := args.get("status")) is not None:
        if not raw.isdigit() or not 100 <= int(raw) <= 599:
            raise invalid("status", "must be an HTTP status between 100 and 599")
        found["status"] = int(raw)
    if (raw := args.get("method")) is not None:
        if raw.upper() not in METHODS:
            raise invalid("method", f"must be one of {', '.join(METHODS)}")
        found["method"] = raw.upper()
    if (raw := args.get("path")) is not None:
        found["path"] = raw
    if (raw := args.get("api_key_id")) is not None:
        ids = [part.strip() for part in raw.split(",") if part.strip()]
        if not ids:
            raise invalid("api_key_id", "must name at least one key id")
        found["api_key_ids"] = tuple(ids)
    for name in ("error_code", "idempotency_key", "message_id"):
        if (raw := args.get(name)) is not None:
            found[name] = raw
    if (raw := args.get("mode")) is not None:
        if raw not in MODES:
            raise invalid("mode", "must be live or test")
        found["mode"] = raw
    return LogFilters(**found)
