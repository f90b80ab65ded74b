"""Inputs of the suppression routes: the CRM's internal PUT body, and the listing's query."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from app.http import errors
from app.http.bodies import Body
from app.http.paging import KeysetPage
from models.platform.suppression import Reason

if TYPE_CHECKING:
    from sanic import Request

MAX_BODY_BYTES = 4096
CHANNELS = ("email", "sms", "push", "whatsapp")
DEFAULT_LIMIT = 20
MAX_LIMIT = 100


class SuppressionWrite(Body):
    channel: Literal["email", "sms", "push", "whatsapp"]
    """The channel: email, sms, push or whatsapp."""
    address: str = Field(..., min_length=1, max_length=512)
    """The address, number or device token."""
    suppressed: bool
    """True suppresses it; false lifts the CRM's suppression (a bounce the platform recorded stays)."""


def _choice(request: Request, name: str, allowed: tuple[str, ...]) -> str | None:
    value = request.args.get(name) or None
    if value is not None and value not in allowed:
        raise errors.Unprocessable(f"Query parameter {name!r} must be one of {', '.join(allowed)}.",
                                   details={name: f"one of {', '.join(allowed)}"})
    return value


def listing(request: Request) -> tuple[KeysetPage, dict[str, str | None]]:
    """The page and filters of a listing (``channel``, ``address``, ``reason``; bad values 422)."""
    address = request.args.get("address") or None
    if address is not None and len(address) > 512:
        raise errors.Unprocessable("Query parameter 'address' is at most 512 characters.",
                                   details={"address": "at most 512 characters"})
    filters = {"channel": _choice(request, "channel", CHANNELS),
               "reason": _choice(request, "reason", tuple(reason.value for reason in Reason)), "address": address}
    return KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT), filters
