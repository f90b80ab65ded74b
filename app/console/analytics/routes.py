"""An account's analytics, Plausible-style, read from the runtime's rollups: the totals and the days
of a period named in the URL (``?period=today|7d|30d``, ``?page=/path`` to keep one page), drawn as a
uPlot chart by ``static/js/analytics.js`` from the table the page also shows, and the period's
traffic split by each dimension the runtime has (pages, sources, countries, devices, browsers, A/B
sides) as bars; the traffic quality (what was filtered as bots, hosting networks or refused).
``GET /v1/analytics/overview``, ``/breakdown``, ``/traffic-quality``. The live view is live.py."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, timedelta, timezone
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate
from app.console.analytics import runtime
from app.console.templating import render

bp = Blueprint("console_analytics")

PERIODS = {"today": ("Today", 0), "7d": ("Last 7 days", 6), "30d": ("Last 30 days", 29)}
# The runtime's dimensions (app/runtime/analytics/service.py BREAKDOWN_DIMENSIONS), in the order shown.
DIMENSIONS = (("page", "Pages", "Page"), ("source", "Sources", "Source"), ("country", "Countries", "Country"),
              ("device", "Devices", "Device"), ("browser", "Browsers", "Browser"), ("variant", "A/B sides", "Side"))
TOTALS = (("Sessions", "Visitors", "sessions (visits)"), ("Pageviews", "Page views", ""),
          ("Clicks", "Clicks", ""), ("Scrolls", "Scrolls", ""),
          ("CustomEvents", "Conversions", "custom events sent with herald.track"))
CLASSES = {"bot": "Bots", "hosting": "Datacenters and hosting networks", "refused": "Refused (suspicious)"}
PAGE_LIMIT = 512


def period_of(request: Request, today: date | None = None) -> tuple[str, str, dict[str, str]]:
    """The chosen period's key and name, and its whole UTC days as the runtime's ``de``/``ate``."""
    chosen = request.args.get("period") if request.args.get("period") in PERIODS else "7d"
    name, back = PERIODS[chosen]
    today = today or datetime.now(timezone.utc).date()
    return chosen, name, {"de": (today - timedelta(days=back)).isoformat(), "ate": today.isoformat()}


def page_of(request: Request) -> str:
    return (request.args.get("page") or "").strip()[:PAGE_LIMIT]


def days_of(overview: dict, span: dict[str, str]) -> list[dict]:
    """Every day of the period, those without traffic as zeros (the runtime lists days with traffic)."""
    found = {row["Day"]: row for row in overview.get("Days") or []}
    first, last = date.fromisoformat(span["de"]), date.fromisoformat(span["ate"])
    rows = []
    for offset in range((last - first).days + 1):
        day = (first + timedelta(days=offset)).isoformat()
        row = found.get(day, {})
        rows.append({"Day": day, **{key: int(row.get(key) or 0) for key in ("Sessions", "Pageviews", "Clicks")}})
    return rows


def bars(items: list[dict]) -> list[dict]:
    """Each value with its share of the largest (the bar's length, in percent) and of the whole."""
    top = max((item["Pageviews"] or item["Events"] for item in items), default=0) or 1
    whole = sum(item["Pageviews"] for item in items) or 1
    return [{**item, "Width": round(100 * (item["Pageviews"] or item["Events"]) / top),
             "Share": round(100 * item["Pageviews"] / whole)} for item in items]


@bp.get("/a/<account_id:id>/analytics", ctx_query=("period", "page"))
async def overview(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    chosen, name, span = period_of(request)
    page = page_of(request)
    query = {**span, **({"pagina": page} if page else {})}
    found, *split = await asyncio.gather(
        runtime.read(request, account_id, "/v1/analytics/overview", params=query),
        *(runtime.read(request, account_id, "/v1/analytics/breakdown", params={**query, "dimensao": key})
          for key, _, _ in DIMENSIONS))
    totals = found.get("Overview") if found is not None else None
    breakdowns = [{"key": key, "title": title, "column": column,
                   "items": bars(answer.get("Breakdown", {}).get("Items") or []) if answer is not None else None}
                  for (key, title, column), answer in zip(DIMENSIONS, split)]
    keep = {"period": chosen, **({"page": page} if page else {})}
    return render(request, "analytics/overview.html", title="Analytics", section="overview", periods=PERIODS,
                  chosen=chosen, period_name=name, span=span, page_filter=page, totals=totals, total_names=TOTALS,
                  days=days_of(totals, span) if totals is not None else None, breakdowns=breakdowns,
                  period_links={key: "?" + urlencode({"period": key, **({"page": page} if page else {})})
                                for key in PERIODS},
                  page_link=lambda value: "?" + urlencode({**keep, "page": value}),
                  all_pages="?" + urlencode({"period": chosen}))


@bp.get("/a/<account_id:id>/analytics/quality", ctx_query=("period",))
async def quality(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    chosen, name, span = period_of(request)
    found = await runtime.read(request, account_id, "/v1/analytics/traffic-quality", params=span)
    report = found.get("TrafficQuality") if found is not None else None
    shares = None
    if report is not None:
        whole = (report["Human"] + report["Filtered"]) or 1
        by_class: dict[str, int] = {}
        for reason in report["Reasons"]:
            by_class[reason["Class"]] = by_class.get(reason["Class"], 0) + reason["Events"]
        shares = [{"name": "Human visitors", "events": report["Human"], "share": 100 * report["Human"] / whole}]
        shares += [{"name": CLASSES.get(klass, klass), "events": count, "share": 100 * count / whole}
                   for klass, count in sorted(by_class.items(), key=lambda pair: -pair[1])]
    return render(request, "analytics/quality.html", title="Traffic quality", section="quality", periods=PERIODS,
                  chosen=chosen, period_name=name, report=report, shares=shares, classes=CLASSES,
                  period_links={key: "?" + urlencode({"period": key}) for key in PERIODS})
