"""The platform's numbers for staff, as they are now: traffic over a recent window (``?range=1h``,
``24h`` by default, ``7d``), delivery and failure rates overall and per channel, accounts by status,
queue depths and the relay's lag. The page refreshes its numbers every 10 s (htmx polling the same
URL, which answers a fragment), with no end: it is a screen left open. ``GET /api/admin/metrics``.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_staff_metrics")
RANGES = {"1h": ("the last hour", timedelta(hours=1)), "24h": ("the last 24 hours", timedelta(hours=24)),
          "7d": ("the last 7 days", timedelta(days=7))}
CHANNELS = (("email", "E-mail"), ("sms", "SMS"), ("push", "Push"), ("whatsapp", "WhatsApp"))
REFRESH_SECONDS = 10


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.get("/staff/metrics", ctx_query=("range",))
async def metrics(request: Request) -> HTTPResponse:
    await gate.require_staff(request)
    chosen = request.args.get("range") if request.args.get("range") in RANGES else "24h"
    label, span = RANGES[chosen]
    end = datetime.now(timezone.utc)
    try:
        answer = await upstream.call(request, "GET", "/api/admin/metrics",
                                     params={"from": _iso(end - span), "to": _iso(end)})
        found = answer.body if answer.ok and isinstance(answer.body, dict) else None
    except upstream.Unavailable:  # the refresh keeps going; the page says the numbers are late
        found = None
    return render(request, "staff/metrics.html", fragment="staff/_metrics.html", title="Metrics", section="metrics",
                  ranges=RANGES, chosen=chosen, label=label, found=found, channels=CHANNELS,
                  refresh=REFRESH_SECONDS, measured=_iso(end))
