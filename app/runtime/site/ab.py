"""``GET /v1/analytics/ab`` (identity session, product ``analytics``, ``leitor``): the A/B test of a
published page, per variant: visitors (sessions the pixel counted on that side, from the rollups of
dimension ``variant``), page views, conversions (form submissions made on that side of the page,
from the runtime's submissions) and the conversion rate (conversions / visitors).

Query ``pagina`` (required: the page's path as the pixel names it, ``/promo``), ``de``, ``ate`` (as
every analytics read: dates or RFC 3339 moments, the last 7 days by default). The variant a published
page shows is put on its pixel tag (``data-variant``) and on its form (``_variant``), so both sides
are counted with the same id, the pages system's variant id.
"""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, HTTPResponse, Request
from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.openapi import NULLABLE_STRING, STRING, answers, described, reply_of, shape
from app.http.responses import reply
from app.runtime import db
from app.runtime.analytics import service as analytics
from app.runtime.gate.v1 import READER, access_of
from kit.timestamps import iso

bp = Blueprint("v1_analytics_ab", url_prefix="/v1/analytics")

_INT = {"type": "integer"}
_VISITORS = "Sessions the pixel counted on that side"
AB = reply_of(AB=described(shape(
    De=described(STRING, "The window's start (RFC 3339)."),
    Ate=described(STRING, "The window's end, excluded (RFC 3339)."),
    Pagina=described(STRING, "The page, as the pixel names it (`pagina`)."),
    Visitors=described(_INT, f"{_VISITORS}, every side summed."),
    Conversions=described(_INT, "Form submissions made on the page, every side summed."),
    Variants=described({"type": "array", "items": shape(
        Variant=described(STRING, "The side: the pages system's variant id."),
        Visitors=described(_INT, f"{_VISITORS}."),
        Pageviews=described(_INT, "Page views on that side."),
        Conversions=described(_INT, "Form submissions made on that side."),
        Rate=described({"type": "number"}, "Conversions / visitors (4 decimals), 0 without visitors."),
        Leader=described({"type": "boolean"}, "Whether it has the best rate."))}, "Per side, by variant id.")),
    "The page's A/B test in the window."),
    Leader=described(NULLABLE_STRING, "The variant with the best rate, or null when no side has visitors."))


async def ab_of(conn: BaseDBAsyncClient, tenant: str, span: analytics.Window, page: str) -> list[dict[str, Any]]:
    seen = await conn.execute_query_dict(
        "SELECT value AS variant, sum(sessions) AS visitors, sum(pageviews) AS pageviews FROM analytics_rollups "
        "WHERE tenant = $1 AND dimension = 'variant' AND page = $2 AND hour >= $3 AND hour < $4 AND value <> '' "
        "GROUP BY 1", [tenant, page, span.start, span.end])
    converted = await conn.execute_query_dict(
        "SELECT variant, count(*) AS conversions FROM form_submissions WHERE tenant = $1 AND page = $2 "
        "AND created_at >= $3 AND created_at < $4 AND variant <> '' GROUP BY 1", [tenant, page, span.start, span.end])
    rows: dict[str, dict[str, Any]] = {}
    for row in seen:
        rows[row["variant"]] = {"Variant": row["variant"], "Visitors": int(row["visitors"]),
                                "Pageviews": int(row["pageviews"]), "Conversions": 0}
    for row in converted:
        rows.setdefault(row["variant"], {"Variant": row["variant"], "Visitors": 0, "Pageviews": 0,
                                         "Conversions": 0})["Conversions"] = int(row["conversions"])
    for item in rows.values():
        item["Rate"] = round(item["Conversions"] / item["Visitors"], 4) if item["Visitors"] else 0.0
    return sorted(rows.values(), key=lambda item: item["Variant"])


@bp.get("/ab", ctx_role=READER, ctx_auth="session", ctx_errors=(403, 404, 503), ctx_query=("pagina", "de", "ate"),
        ctx_responses=answers({200: AB}))
async def ab(request: Request) -> HTTPResponse:
    """Per-variant visitors, conversions (form submissions) and rate of a page's A/B test."""
    page = request.args.get("pagina") or ""
    if not page:
        raise errors.Unprocessable("Query parameter 'pagina' is required.", details={"pagina": "required"})
    if len(page) > 512:
        raise errors.Unprocessable("Query parameter 'pagina' is too long.", details={"pagina": "at most 512"})
    span = analytics.window(request.args.get("de") or None, request.args.get("ate") or None)
    variants = await ab_of(db.connection(), access_of(request).tenant_id, span, page)
    best = max((item for item in variants if item["Visitors"]), key=lambda item: item["Rate"], default=None)
    for item in variants:
        item["Leader"] = best is not None and item is best
    return reply(request, {"AB": {"De": iso(span.start), "Ate": iso(span.end), "Pagina": page,
                                  "Visitors": sum(item["Visitors"] for item in variants),
                                  "Conversions": sum(item["Conversions"] for item in variants),
                                  "Variants": variants},
                           "Leader": best["Variant"] if best else None})
