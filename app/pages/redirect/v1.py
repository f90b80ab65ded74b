"""Redirects (scopes ``pages:read``, ``pages:write``): ``GET/POST /v1/redirects``, ``GET/PATCH/DELETE
/v1/redirects/{id}`` (PATCH touches only the fields sent), ``GET /v1/redirects/{id}/cliques``. Served by
the runtime at ``https://<domain>/r/<slug>``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.pages import db
from app.pages.gate.v1 import tenant_of
from app.pages.redirect import service
from app.pages.redirect.schemas import RedirectCreate, RedirectPatch
from app.pages.redirect.views import CLICKS, REDIRECT, REDIRECTS, clicks_view, redirect_view

bp = Blueprint("v1_redirects", url_prefix="/v1")


@bp.get("/redirects", ctx_scope="pages:read", ctx_query=("cursor", "limit"), ctx_responses=answers({200: REDIRECTS}))
async def list_redirects(request: Request) -> HTTPResponse:
    """The account's redirects, newest first."""
    found = await service.list_redirects(db.connection(), tenant_of(request),
                                         KeysetPage.of(request, default_limit=20, max_limit=100))
    return reply(request, {"Redirects": [redirect_view(row) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/redirects", ctx_scope="pages:write", ctx_body=RedirectCreate, ctx_errors=(409,),
         ctx_responses=answers({201: REDIRECT}))
async def create_redirect(request: Request) -> HTTPResponse:
    """A new redirect from ``<domain>/r/<slug>`` to the target."""
    body = parse_body(request, RedirectCreate)
    async with db.transaction() as conn:
        row = await service.create(conn, tenant_of(request), **body.model_dump())
    return reply(request, {"Redirect": redirect_view(row)}, status=201)


@bp.get("/redirects/<redirect_id:id>", ctx_scope="pages:read", ctx_responses=answers({200: REDIRECT}))
async def get_redirect(request: Request, redirect_id: str) -> HTTPResponse:
    """One redirect."""
    return reply(request, {"Redirect": redirect_view(await service.find(db.connection(), tenant_of(request),
                                                                        redirect_id))})


@bp.patch("/redirects/<redirect_id:id>", ctx_scope="pages:write", ctx_body=RedirectPatch, ctx_errors=(409,),
          ctx_responses=answers({200: REDIRECT}))
async def update_redirect(request: Request, redirect_id: str) -> HTTPResponse:
    """Changes a redirect: only the fields sent, validated as on create; clicks are kept."""
    changes = parse_body(request, RedirectPatch).changes()
    async with db.transaction() as conn:
        row = await service.update(conn, tenant_of(request), redirect_id, changes)
    return reply(request, {"Redirect": redirect_view(row)})


@bp.delete("/redirects/<redirect_id:id>", ctx_scope="pages:write", ctx_responses=answers({204: NO_CONTENT}))
async def delete_redirect(request: Request, redirect_id: str) -> HTTPResponse:
    """Deletes the redirect (the runtime stops serving it)."""
    async with db.transaction() as conn:
        await service.delete(conn, tenant_of(request), redirect_id)
    return no_content()


@bp.get("/redirects/<redirect_id:id>/cliques", ctx_scope="pages:read", ctx_responses=answers({200: CLICKS}))
async def redirect_clicks(request: Request, redirect_id: str) -> HTTPResponse:
    """The redirect's click count (summed from the runtime's flushes)."""
    return reply(request, clicks_view(await service.find(db.connection(), tenant_of(request), redirect_id)))
