"""Platform alerts on the operator surface (contract D; docs/operator.md).

    GET/POST   /api/admin/platform-alerts          rules; create {Name, Metric, Channel?, TenantId?, Threshold, WindowMinutes?}
    PUT/DELETE /api/admin/platform-alerts/{id}     replace (resets to calm); remove
    GET        /api/admin/platform-alerts/events   firings and recoveries, newest first (?rule=)

The scheduler job platform_alerts.evaluate (schedules/platform/alerts.py) records the events.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.platform_alert import service
from app.platform.platform_alert.schemas import AlertRule
from app.platform.platform_alert.views import EVENTS, RULE, RULES, event_json, rule_json
from app.platform.gate.admin import actor

bp = Blueprint("platform_admin_platform_alert")


def _page(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=50, max_limit=200)


@bp.get("/api/admin/platform-alerts", ctx_auth="session", ctx_query=("cursor", "limit"), ctx_errors=(400, 404),
        ctx_responses=answers({200: RULES}))
async def list_rules(request: Request) -> HTTPResponse:
    """List the platform's alert rules with whether each is firing, a page at a time.

    Staff only: anyone else gets 404."""
    conn = db.connection()
    page = await _page(request).fetch(conn, service.rules(conn), audience="platform-alerts")
    return reply(request, {"Alerts": [rule_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})


@bp.post("/api/admin/platform-alerts", ctx_auth="session", ctx_body=AlertRule, ctx_errors=(403, 404, 409, 413, 422),
         ctx_responses=answers({201: RULE}))
async def create_rule(request: Request) -> HTTPResponse:
    """Create an alert rule: a metric, optionally of one channel or account, over a threshold in a window.

    Staff only (404 to anyone else). 422 for a combination the metric does not take; 403 in a support session."""
    body = parse_body(request, AlertRule)
    async with db.transaction() as conn:
        made = await service.create(conn, actor(request), body)
    return reply(request, {"Alert": rule_json(made)}, status=201)


@bp.get("/api/admin/platform-alerts/events", ctx_auth="session", ctx_query=("cursor", "limit", "rule"),
        ctx_errors=(400, 404), ctx_responses=answers({200: EVENTS}))
async def list_events(request: Request) -> HTTPResponse:
    """Firings and recoveries recorded by the scheduler, newest first."""
    rule_id = request.args.get("rule") or None
    conn = db.connection()
    page = await _page(request).fetch(conn, service.events(conn, rule_id), audience=f"platform-alert-events:{rule_id}")
    return reply(request, {"Events": [event_json(row) for row in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})


@bp.put("/api/admin/platform-alerts/<rule_id:id>", ctx_auth="session", ctx_body=AlertRule,
        ctx_errors=(403, 404, 413, 422), ctx_responses=answers({200: RULE}))
async def replace_rule(request: Request, rule_id: str) -> HTTPResponse:
    """Replace an alert rule with the one in the body.

    Staff only (404 to anyone else, and for an unknown rule). 422 for a combination the metric does not take; 403 in a
    support session."""
    body = parse_body(request, AlertRule)
    async with db.transaction() as conn:
        found = await service.replace(conn, actor(request), rule_id, body)
    return reply(request, {"Alert": rule_json(found)})


@bp.delete("/api/admin/platform-alerts/<rule_id:id>", ctx_auth="session", ctx_errors=(403, 404),
           ctx_responses=answers({204: NO_CONTENT}))
async def remove_rule(request: Request, rule_id: str) -> HTTPResponse:
    """Delete an alert rule.

    Staff only (404 to anyone else, and for an unknown rule); 403 in a support session."""
    async with db.transaction() as conn:
        await service.remove(conn, actor(request), rule_id)
    return no_content()
