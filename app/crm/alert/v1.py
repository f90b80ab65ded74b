"""Alerts of an account on CRM metrics (docs/crm.md).

    GET    /v1/alertas              the alerts (paging)                                  leitor
    POST   /v1/alertas              create: 201 {alerta}, calm                            admin
    GET    /v1/alertas/eventos      the account-wide firing history (keyset paging;       leitor
                                    ?alerta= one alert's)
    GET    /v1/alertas/{id}         one alert with its state                              leitor
    PATCH  /v1/alertas/{id}         edit its configuration: back to calm                  admin
    DELETE /v1/alertas/{id}         delete (its events stay in the history)               admin
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.alert import service
from app.crm.alert.schemas import MAX_BODY_BYTES, AlertCreate, AlertPatch
from app.crm.alert.views import ALERT, ALERTS, EVENTS, alert_view, event_view
from app.crm.gate import access_of
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_alerts", url_prefix="/v1/alertas")

SESSION = "session"
ACCESS_ERRORS = (400, 403, 404, 502, 503)


@bp.get("/eventos", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("cursor", "limit", "alerta"),
        ctx_errors=ACCESS_ERRORS, ctx_responses=answers({200: EVENTS}))
async def alert_events(request: Request) -> HTTPResponse:
    """The account-wide firing history, newest first.

    `alerta` (an alert's id, `alr_...`): that alert's events only, a deleted alert's included; an id
    the account never had gives an empty history."""
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    alert_id = (request.args.get("alerta") or "")[:40] or None
    found = await service.events(db.connection(), access_of(request).tenant_id, page, alert_id=alert_id)
    return reply(request, {"eventos": [event_view(row) for row in found.items], "proximo_cursor": found.next_cursor,
                           "tem_mais": found.has_more})


@bp.get("", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: ALERTS}))
async def list_alerts(request: Request) -> HTTPResponse:
    """The account's alerts, newest first."""
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    found = await service.list_alerts(db.connection(), access_of(request).tenant_id, page)
    return reply(request, {"alertas": [alert_view(row) for row in found.items], "proximo_cursor": found.next_cursor,
                           "tem_mais": found.has_more})


@bp.post("", ctx_auth=SESSION, ctx_role="admin", ctx_body=AlertCreate, ctx_errors=ACCESS_ERRORS + (422,),
         ctx_responses=answers({201: ALERT}))
async def create_alert(request: Request) -> HTTPResponse:
    """Create an alert (calm; evaluated at once, then every minute)."""
    body = parse_body(request, AlertCreate, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.create(conn, access_of(request).tenant_id, body.model_dump())
    poke(request)
    return reply(request, {"alerta": alert_view(row)}, status=201)


@bp.get("/<alert_id:id>", ctx_auth=SESSION, ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: ALERT}))
async def get_alert(request: Request, alert_id: str) -> HTTPResponse:
    """One alert and its state."""
    return reply(request, {"alerta": alert_view(await service.alert(db.connection(), access_of(request).tenant_id,
                                                                    alert_id))})


@bp.patch("/<alert_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_body=AlertPatch,
          ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: ALERT}))
async def patch_alert(request: Request, alert_id: str) -> HTTPResponse:
    """Edit the configuration; the alert goes back to calm."""
    body = parse_body(request, AlertPatch, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.update(conn, access_of(request).tenant_id, alert_id, body.model_dump(exclude_unset=True))
    poke(request)
    return reply(request, {"alerta": alert_view(row)})


@bp.delete("/<alert_id:id>", ctx_auth=SESSION, ctx_role="admin", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_alert(request: Request, alert_id: str) -> HTTPResponse:
    """Delete the alert (its events stay in the history)."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, alert_id)
    return no_content()
