"""Lists of an account, for a person acting in it.

    GET    /v1/listas                              lists with member counts (paging)          leitor
    POST   /v1/listas                              create or rename by slug: always 201       editor
    GET    /v1/listas/{id}                         one list                                   leitor
    DELETE /v1/listas/{id}                         delete (members leave it; contacts stay)   editor
    POST   /v1/listas/{id}/membros                 add contacts: {adicionados, inexistentes}   editor
    DELETE /v1/listas/{id}/membros/{contact_id}    remove one contact (idempotent)            editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import access_of
from app.crm.list import service
from app.crm.list.schemas import MAX_BODY_BYTES, ListWrite, MembersAdd
from app.crm.list.views import ADDED, LIST, LISTS, added_view, list_view
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply

bp = Blueprint("crm_v1_lists", url_prefix="/v1")

SESSION = "session"
ACCESS_ERRORS = (400, 403, 404, 502, 503)


async def lists_answer(request: Request, tenant: str) -> HTTPResponse:
    page = KeysetPage.of(request, default_limit=50, max_limit=200)
    found, counts = await service.list_lists(db.connection(), tenant, page)
    return reply(request, {"listas": [list_view(row, counts[row.id]) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


async def upsert_answer(request: Request, tenant: str) -> HTTPResponse:
    body = parse_body(request, ListWrite, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row, members = await service.upsert(conn, tenant, body.nome, body.slug)
    return reply(request, {"lista": list_view(row, members)}, status=201)


async def add_answer(request: Request, tenant: str, list_id: str) -> HTTPResponse:
    body = parse_body(request, MembersAdd, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        _, added, missing = await service.add_members(conn, tenant, list_id, body.contatos)
    return reply(request, added_view(added, missing))


async def remove_answer(tenant: str, list_id: str, contact_id: str) -> HTTPResponse:
    async with db.transaction() as conn:
        await service.remove_member(conn, tenant, list_id, contact_id)
    return no_content()


@bp.get("/listas", ctx_auth=SESSION, ctx_role="leitor", ctx_query=("cursor", "limit"), ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: LISTS}))
async def list_lists(request: Request) -> HTTPResponse:
    """The account's lists with their member counts, newest first."""
    return await lists_answer(request, access_of(request).tenant_id)


@bp.post("/listas", ctx_auth=SESSION, ctx_role="editor", ctx_body=ListWrite, ctx_errors=ACCESS_ERRORS + (422,),
         ctx_responses=answers({201: LIST}))
async def upsert_list(request: Request) -> HTTPResponse:
    """Create the list of this slug, or rename it (201 either way)."""
    return await upsert_answer(request, access_of(request).tenant_id)


@bp.get("/listas/<list_id:id>", ctx_auth=SESSION, ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: LIST}))
async def get_list(request: Request, list_id: str) -> HTTPResponse:
    """One list with its member count."""
    conn = db.connection()
    row = await service.contact_list(conn, access_of(request).tenant_id, list_id)
    return reply(request, {"lista": list_view(row, (await service.member_counts(conn, [row.id]))[row.id])})


@bp.delete("/listas/<list_id:id>", ctx_auth=SESSION, ctx_role="editor", ctx_errors=ACCESS_ERRORS,
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_list(request: Request, list_id: str) -> HTTPResponse:
    """Delete a list; its contacts stay."""
    async with db.transaction() as conn:
        await service.delete(conn, access_of(request).tenant_id, list_id)
    return no_content()


@bp.post("/listas/<list_id:id>/membros", ctx_auth=SESSION, ctx_role="editor", ctx_body=MembersAdd,
         ctx_errors=ACCESS_ERRORS + (422,), ctx_responses=answers({200: ADDED}))
async def add_members(request: Request, list_id: str) -> HTTPResponse:
    """Add contacts to the list (idempotent); names the ids that are not contacts of the account."""
    return await add_answer(request, access_of(request).tenant_id, list_id)


@bp.delete("/listas/<list_id:id>/membros/<contact_id:id>", ctx_auth=SESSION, ctx_role="editor",
           ctx_errors=ACCESS_ERRORS, ctx_responses=answers({204: NO_CONTENT}))
async def remove_member(request: Request, list_id: str, contact_id: str) -> HTTPResponse:
    """Remove a contact from the list (204 whether or not it was a member)."""
    return await remove_answer(access_of(request).tenant_id, list_id, contact_id)
