"""Redirect rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.pages import Redirect

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
_STATUS = described({"type": "integer"}, "The redirect's HTTP status: 301, 302, 307 or 308.")
REDIRECT_SHAPE = shape(
    Id=described(STRING, "The redirect's id (`rdr_...`)."),
    Domain=described(STRING, "The host it answers on."),
    Slug=described(STRING, "Its path: `/r/<slug>`."),
    Target=described(STRING, "Where it sends visitors."),
    StatusCode=_STATUS,
    Clicks=described({"type": "integer"}, "Visits counted so far (summed from the runtime's flushes)."),
    CreatedAt=described(TIMESTAMP, "When it was created (RFC 3339)."))
REDIRECT = reply_of(Redirect=described(REDIRECT_SHAPE, "The redirect."))
REDIRECTS = reply_of(Redirects=described({"type": "array", "items": REDIRECT_SHAPE}, "The redirects, newest first."),
                     NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                     HasMore=described({"type": "boolean"}, "Whether there is a next page."))
CLICKS = reply_of(RedirectId=described(STRING, "The redirect's id."),
                  Clicks=described({"type": "integer"}, "Visits counted so far."),
                  LastClickAt=described(NULLABLE_TIME, "When the last counted visit was flushed (RFC 3339), or null."))
RESOLVED = reply_of(Redirect=described(shape(Id=described(STRING, "The redirect's id."),
                                             Target=described(STRING, "Where to send the visitor."),
                                             StatusCode=_STATUS), "The redirect at that address."))


def redirect_view(row: Redirect) -> dict:
    return {"Id": row.public_id, "Domain": row.domain, "Slug": row.slug, "Target": row.target,
            "StatusCode": row.status_code, "Clicks": row.clicks, "CreatedAt": iso(row.created_at)}


def clicks_view(row: Redirect) -> dict:
    return {"RedirectId": row.public_id, "Clicks": row.clicks, "LastClickAt": iso(row.last_click_at)}


def resolved_view(row: Redirect) -> dict:
    """What the runtime needs to answer ``/r/<slug>``: never the account."""
    return {"Id": row.public_id, "Target": row.target, "StatusCode": row.status_code}
