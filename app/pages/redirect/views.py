"""Redirect rows -> the contract's dicts."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.pages import Redirect

NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
REDIRECT_SHAPE = shape(Id=STRING, Domain=STRING, Slug=STRING, Target=STRING, StatusCode={"type": "integer"},
                       Clicks={"type": "integer"}, CreatedAt=TIMESTAMP)
REDIRECT = reply_of(Redirect=REDIRECT_SHAPE)
REDIRECTS = reply_of(Redirects={"type": "array", "items": REDIRECT_SHAPE}, NextCursor=NULLABLE_STRING,
                     HasMore={"type": "boolean"})
CLICKS = reply_of(RedirectId=STRING, Clicks={"type": "integer"}, LastClickAt=NULLABLE_TIME)
RESOLVED = reply_of(Redirect=shape(Id=STRING, Target=STRING, StatusCode={"type": "integer"}))


def redirect_view(row: Redirect) -> dict:
    return {"Id": row.public_id, "Domain": row.domain, "Slug": row.slug, "Target": row.target,
            "StatusCode": row.status_code, "Clicks": row.clicks, "CreatedAt": iso(row.created_at)}


def clicks_view(row: Redirect) -> dict:
    return {"RedirectId": row.public_id, "Clicks": row.clicks, "LastClickAt": iso(row.last_click_at)}


def resolved_view(row: Redirect) -> dict:
    """What the runtime needs to answer ``/r/<slug>``: never the account."""
    return {"Id": row.public_id, "Target": row.target, "StatusCode": row.status_code}
