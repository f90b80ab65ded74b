"""Bodies of /collect and /replay (strict, PascalCase): what the pixel script sends.

The script posts ``text/plain`` (a CORS-safelisted type, so no preflight is needed); the body is
JSON whatever the Content-Type says.
"""

from __future__ import annotations

from typing import Literal, Union

import pydantic
from pydantic import Field
from sanic import Request

from app.http.bodies import Body, holds_nul, parse_body

SESSION = r"^[A-Za-z0-9_-]{8,40}$"
MAX_COLLECT_BYTES = 64 * 1024
MAX_REPLAY_BYTES = 256 * 1024  # a batch; pixel.js splits what the recorder emits to fit (413 beyond)
MAX_EVENTS = 50
MAX_REPLAY_EVENTS = 2000

PropValue = Union[str, int, float, bool, None]


class CollectEvent(Body):
    type: Literal["pageview", "click", "scroll", "custom"]
    """`pageview`, `click` (with `X`, `Y`), `scroll` (with `Depth`) or `custom` (with `Name`, `Props`)."""
    url: str = Field(min_length=1, max_length=2048)
    """The page's URL: its host must be the pixel's site or a subdomain of it (else the event is dropped)."""
    page: str = Field("", max_length=512)
    """The page's name in the reports (`data-page`); the URL's path when empty."""
    variant: str = Field("", max_length=40)
    """The A/B side the page shows (`data-variant`), or empty."""
    referrer: str = Field("", max_length=2048)
    """The referrer's URL (a page view's), or empty."""
    time: int | None = Field(None, ge=0, le=2**53)
    """When it happened in the browser, in epoch milliseconds; the receive time is kept when it is off by a day."""
    width: int | None = Field(None, ge=0, le=100_000)
    """The viewport's width in pixels."""
    new: bool = False
    """Whether this page view starts a new session."""
    x: float | None = Field(None, ge=0, le=100)
    """A click's position, in percent of the page's width."""
    y: float | None = Field(None, ge=0, le=100)
    """A click's position, in percent of the page's height."""
    depth: int | None = Field(None, ge=0, le=100)
    """A scroll's depth, in percent of the page reached."""
    name: str = Field("", max_length=100)
    """A custom event's name."""
    props: dict[str, PropValue] = Field(default_factory=dict, max_length=20)
    """A custom event's properties: at most 20, each a string, number, boolean or null."""


class CollectBatch(Body):
    session: str = Field(pattern=SESSION)
    """The visit's id, chosen by the client: 8 to 40 of `A-Z a-z 0-9 _ -`, random, never a person's identifier."""
    events: list[CollectEvent] = Field(min_length=1, max_length=MAX_EVENTS)
    """The events (1 to 50)."""


def parse_collect(request: Request) -> CollectBatch:
    """The /collect body: parsed and validated in one pass by pydantic's own JSON reader (a third of
    the time of ``json.loads`` then validation: this is the busiest body of the house). A body it
    refuses is read again by the house's ``parse_body``, so every error is the one any body gets.

    The one pass accepts no more than ``parse_body`` does: the fields are strings, numbers, booleans
    and flat objects, which strict validation treats alike from JSON and from Python; nesting
    deeper than a property value is a type error; a NUL is checked first, as ``parse_body`` does."""
    return read_collect(request.body or b"") or parse_body(request, CollectBatch, max_bytes=MAX_COLLECT_BYTES)


def read_collect(raw: bytes) -> CollectBatch | None:
    """The one pass of :func:`parse_collect`: the batch, or None for a body it refuses (too big, a
    NUL, invalid), whose error ``parse_body`` then names."""
    if len(raw) > MAX_COLLECT_BYTES or holds_nul(raw):
        return None
    try:
        return CollectBatch.model_validate_json(raw)
    except pydantic.ValidationError:
        return None


# The replay body is read without the depth check of strict bodies (a page's DOM snapshot is deep):
# only its envelope is checked; each recorder event must be an object with a numeric type and timestamp.
REPLAY_SCHEMA = {
    "type": "object", "required": ["Session", "Events"], "additionalProperties": False,
    "properties": {
        "Session": {"type": "string", "pattern": SESSION,
                    "description": "The visit's id, as `/collect` takes it (its events and recording are tied by it)."},
        "Page": {"type": "string", "maxLength": 512, "description": "The page's name in the reports."},
        "Events": {"type": "array", "minItems": 1, "maxItems": MAX_REPLAY_EVENTS,
                   "description": "rrweb events (1 to 2000), kept as they are.",
                   "items": {"type": "object", "required": ["type", "timestamp"],
                             "properties": {"type": {"type": "integer", "description": "The rrweb event's type."},
                                            "timestamp": {"type": "integer",
                                                          "description": "When it happened, in epoch milliseconds."}}}},
    },
}


def parse_replay(raw: bytes) -> dict:
    """The replay body as :data:`REPLAY_SCHEMA` describes it, or 400 naming what is wrong. Deep
    nesting is allowed up to what the parser takes (a RecursionError is a 400, never a 500); a NUL
    character is refused (PostgreSQL's jsonb cannot hold one)."""
    import json
    import re

    from app.http import errors
    from app.http.bodies import holds_nul

    if len(raw) > MAX_REPLAY_BYTES:
        raise errors.PayloadTooLarge(MAX_REPLAY_BYTES)
    if not raw.strip():
        raise errors.ValidationError("A JSON object is required as the request body.", details={"body": "required"})
    if holds_nul(raw):
        raise errors.ValidationError("The request body holds a NUL character.", details={"body": "holds a NUL"})
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise errors.InvalidJson(f"The request body is not valid JSON: {exc}.") from None
    except RecursionError:
        raise errors.ValidationError("The request body is nested too deeply.", details={"body": "too deep"}) from None
    if not isinstance(body, dict):
        raise errors.ValidationError("The request body must be a JSON object.", details={"body": "must be an object"})
    unknown = sorted(set(body) - {"Session", "Page", "Events"})
    if unknown:
        raise errors.ValidationError(f"Unknown field {unknown[0]!r} in the request body.",
                                     details={name: "unknown field" for name in unknown})
    session, page, events = body.get("Session"), body.get("Page", ""), body.get("Events")
    problems: dict[str, str] = {}
    if not isinstance(session, str) or not re.fullmatch(SESSION[1:-1], session):
        problems["Session"] = "8 to 40 of A-Z a-z 0-9 _ -"
    if not isinstance(page, str) or len(page) > 512:
        problems["Page"] = "a string of at most 512 characters"
    if not isinstance(events, list) or not 1 <= len(events) <= MAX_REPLAY_EVENTS:
        problems["Events"] = f"an array of 1 to {MAX_REPLAY_EVENTS} recorder events"
    elif not all(isinstance(event, dict) and type(event.get("type")) is int and type(event.get("timestamp")) is int
                 and 0 <= event["timestamp"] < 2**53 for event in events):
        problems["Events"] = "each event an object with integer type and timestamp"
    if problems:
        raise errors.ValidationError("The replay batch is not valid: " + ", ".join(problems) + ".", details=problems)
    return body
