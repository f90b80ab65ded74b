"""Segments of an account.

    GET    /v1/segmentos           list (paging)                                  leitor
    POST   /v1/segmentos           create {nome, regras}: 201                     editor
    POST   /v1/segmentos/previa    reach of {regras}: {alcance, amostra}; saves nothing   leitor
    GET    /v1/segmentos/{id}      one segment                                    leitor
    PUT    /v1/segmentos/{id}      replace {nome, regras}                         editor
    DELETE /v1/segmentos/{id}      delete                                         editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import access_of
from app.crm.segment import service
from app.crm.segment.schemas import MAX_BODY_BYTES, SegmentPreview, SegmentWrite
from app.crm.segment.views import REACH, SEGMENT, SEGMENTS, reach_view, segment_view
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply

bp = Blueprint("crm_v1_segments", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)


@bp.get("/segmentos", ctx_auth="session", ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: SEGMENTS}))
async def list_segments(request: Request) -> HTTPResponse:
    """The account's segments, newest first."""
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    found = await service.list_segments(db.connection(), access_of(request).tenant_id, page)
    return reply(request, {"segmentos": [segment_view(row) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.post("/segmentos", ctx_auth="session", ctx_role="editor", ctx_body=SegmentWrite,
         ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({201: SEGMENT}))
async def create_segment(request: Request) -> HTTPResponse:
    """Save a segment; its rules are validated first (422 naming the node)."""
    body = parse_body(request, SegmentWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.create(conn, access_of(request).tenant_id, body.nome, body.regras)
    return reply(request, {"segmento": segment_view(row)}, status=201)


@bp.post("/segmentos/previa", ctx_auth="session", ctx_role="leitor", ctx_body=SegmentPreview,
         ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: REACH}))
async def preview_segment(request: Request) -> HTTPResponse:
    """How many contacts the rules reach, and a sample of their ids; nothing is saved."""
    body = parse_body(request, SegmentPreview, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:  # read-only; the transaction scopes the plan setting
        found = await service.reach(conn, access_of(request).tenant_id, body.regras)
    return reply(request, reach_view(found))


@bp.get("/segmentos/<segment_id:id>", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: SEGMENT}))
async def get_segment(request: Request, segment_id: str) -> HTTPResponse:
    """One segment."""
    row = await service.segment(db.connection(), access_of(request).tenant_id, segment_id)
    return reply(request, {"segmento": segment_view(row)})


@bp.put("/segmentos/<segment_id:id>", ctx_auth="session", ctx_role="editor", ctx_body=SegmentWrite,
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: SEGMENT}))
async def replace_segment(request: Request, segment_id: str) -> HTTPResponse:
    """Replace a segment's name and rules."""
    body = parse_body(request, SegmentWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.replace(conn, access_of(request).tenant_id, segment_id, body.nome, body.regras)
    return reply(request, {"segmento": segment_view(row)})


@bp.delete("/segmentos/<segment_id:id>", ctx_auth="session", ctx_role="editor", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_segment(request: Request, segment_id: str) -> HTTPResponse:
    """Delete a segment."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, segment_id)
    return no_content()
