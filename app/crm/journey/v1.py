"""Journeys (docs/crm.md, "Journeys"; contract F and the Journey row of "States and transitions").

    GET    /v1/jornadas                     the account's journeys, newest first, with enrollment counts leitor
    POST   /v1/jornadas                     create (off); 201 {jornada} with its problemas            editor
    GET    /v1/jornadas/{id}                one journey                                               leitor
    PATCH  /v1/jornadas/{id}                partial edit (trigger/steps: 409 while on)                editor
    DELETE /v1/jornadas/{id}                delete, with its enrollments                              editor
    PUT    /v1/jornadas/{id}/ativa          {ativa}: on (revalidated, 422 listing problems) or off    editor
    GET    /v1/jornadas/{id}/inscricoes     enrollments: state, current step, history (estado, cursor) leitor
    GET    /v1/contatos/{id}/jornadas       the contact's latest 50 enrollments, with their journey     leitor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import access_of
from app.crm.journey import service
from app.crm.journey.schemas import MAX_BODY_BYTES, Activation, JourneyPatch, JourneyWrite
from app.crm.journey.views import (CONTACT_JOURNEYS, ENROLLMENTS, JOURNEY, JOURNEYS, contact_journey_view,
                                   enrollment_view, journey_view)
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.http.wakeup import poke

bp = Blueprint("crm_v1_journeys", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)
DEFAULT_LIMIT = 20
MAX_LIMIT = 100


def _page(request: Request) -> KeysetPage:
    return KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)


@bp.get("/jornadas", ctx_auth="session", ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: JOURNEYS}))
async def list_journeys(request: Request) -> HTTPResponse:
    """The account's journeys, newest first, each with its enrollments counted by state."""
    conn = db.connection()
    found = await service.list_journeys(conn, access_of(request).tenant_id, _page(request))
    counts = await service.enrollment_counts(conn, found.items)
    items = [{**journey_view(row, (await service.problems(conn, row))[0]), "inscricoes": counts[row.id]}
             for row in found.items]
    return reply(request, {"jornadas": items, "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.post("/jornadas", ctx_auth="session", ctx_role="editor", ctx_body=JourneyWrite, ctx_errors=ACCESS_ERRORS + (422,),
         ctx_responses=answers({201: JOURNEY}))
async def create_journey(request: Request) -> HTTPResponse:
    """Create a journey, off; what it lacks to run is listed in problemas."""
    body = parse_body(request, JourneyWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row, problems = await service.create(conn, access_of(request).tenant_id, body)
    return reply(request, {"jornada": journey_view(row, problems)}, status=201)


@bp.get("/jornadas/<journey_id:id>", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: JOURNEY}))
async def get_journey(request: Request, journey_id: str) -> HTTPResponse:
    """One journey, with what it lacks to run."""
    conn = db.connection()
    row = await service.journey(conn, access_of(request).tenant_id, journey_id)
    return reply(request, {"jornada": journey_view(row, (await service.problems(conn, row))[0])})


@bp.patch("/jornadas/<journey_id:id>", ctx_auth="session", ctx_role="editor", ctx_body=JourneyPatch,
          ctx_errors=ACCESS_ERRORS + (409, 422), ctx_responses=answers({200: JOURNEY}))
async def patch_journey(request: Request, journey_id: str) -> HTTPResponse:
    """Change the fields given; the trigger and steps only while the journey is off."""
    changes = parse_body(request, JourneyPatch, max_bytes=MAX_BODY_BYTES).changes()
    async with db.transaction() as conn:
        row, problems = await service.update(conn, access_of(request).tenant_id, journey_id, changes)
    return reply(request, {"jornada": journey_view(row, problems)})


@bp.delete("/jornadas/<journey_id:id>", ctx_auth="session", ctx_role="editor", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_journey(request: Request, journey_id: str) -> HTTPResponse:
    """Delete a journey and its enrollments."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, journey_id)
    return no_content()


@bp.put("/jornadas/<journey_id:id>/ativa", ctx_auth="session", ctx_role="editor", ctx_body=Activation,
        ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: JOURNEY}))
async def put_active(request: Request, journey_id: str) -> HTTPResponse:
    """Turn the journey on (revalidated; 422 with every problem) or off (never refused)."""
    body = parse_body(request, Activation, max_bytes=1024)
    async with db.transaction() as conn:
        row, problems = await service.set_active(conn, access_of(request).tenant_id, journey_id, body.ativa)
    poke(request)
    return reply(request, {"jornada": journey_view(row, problems)})


@bp.get("/jornadas/<journey_id:id>/inscricoes", ctx_auth="session", ctx_role="leitor",
        ctx_query=("estado", "cursor", "limit"), ctx_errors=ACCESS_ERRORS + (422,),
        ctx_responses=answers({200: ENROLLMENTS}))
async def list_enrollments(request: Request, journey_id: str) -> HTTPResponse:
    """The journey's enrollments, newest first: state, current step and the steps executed."""
    row, found, steps, contacts = await service.enrollments(db.connection(), access_of(request).tenant_id, journey_id,
                                                            _page(request), request.args.get("estado") or None)
    return reply(request, {"inscricoes": [enrollment_view(item, row, contacts.get(item.id, ""), steps[item.id])
                                          for item in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.get("/contatos/<contact_id:id>/jornadas", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: CONTACT_JOURNEYS}))
async def contact_journeys(request: Request, contact_id: str) -> HTTPResponse:
    """List the journeys a contact entered.

    Its latest 50 enrollments, newest first, and where each stands. A foreign or unknown contact is 404."""
    found = await service.contact_enrollments(db.connection(), access_of(request).tenant_id, contact_id)
    return reply(request, {"inscricoes": [contact_journey_view(row, journey) for row, journey in found]})
