"""Deliveries of a destination or a conversion integration, as both pages show them: the CRM's latest
(``GET .../entregas?limite=``, never their payload), each with its attempts (how many, the last one's
time, HTTP status, duration and error, the next one's time), and "Send a test" (``POST .../testar``)
followed on the page: while a delivery is queued or being sent the list refreshes itself every 2 s
(htmx), for 5 minutes at most, so the test's result shows without a reload."""

from __future__ import annotations

from typing import Any

from sanic import Request

from app.console import forms
from app.console.contact import crm

LIMIT = 50
POLL_SECONDS = 2
MOST_POLLS = 150  # 5 minutes of refreshes, then the list says it stopped following
MOVING = ("pending", "delivering")
STATUSES = {"pending": "Queued", "delivering": "Sending", "retrying": "Will try again", "succeeded": "Delivered",
            "failed": "Failed"}
# The CRM's events a destination can receive or an integration can map (models/crm/delivery.py EVENT_TYPES).
EVENTS = {"contact.created": "A contact is created", "contact.updated": "A contact is changed",
          "contact.unsubscribed": "A contact opts out of a channel", "list.member_added": "A contact joins a list"}
TEST_EVENTS = {"destination.test": "Test event", "integration.test": "Test conversion"}


async def context(request: Request, account_id: str, path: str, base: str) -> dict[str, Any]:
    """What ``destination/_deliveries.html`` needs: ``path`` the CRM's target (``/v1/destinos/dst_...``),
    ``base`` the page's own URL; ``?test=<id>`` names the test delivery just queued."""
    found = await crm.read(request, account_id, f"{path}/entregas", params={"limite": str(LIMIT)})
    rows = found.get("entregas", []) if found is not None and found.ok else None
    test_id = (request.args.get("test") or "")[:64]
    test = next((row for row in rows or [] if row["id"] == test_id), None)
    poll = forms.polls(request, MOST_POLLS)
    moving = rows is not None and any(row["status"] in MOVING for row in rows)
    query = f"?poll={poll + 1}" + (f"&test={test_id}" if test else "")
    return {"deliveries": rows, "test": test, "following": moving and poll < MOST_POLLS,
            "stopped": moving and poll >= MOST_POLLS, "poll_url": base + query, "poll_seconds": POLL_SECONDS,
            "statuses": STATUSES, "event_words": {**EVENTS, **TEST_EVENTS}}
