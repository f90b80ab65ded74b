"""Lists for the platform's dashboard (``/api/lists``), with the service credential.

    GET    /internal/v1/tenants/{tenant}/listas                             lists with member counts;
                                                                            ``?slug=``: that list only
                                                                            (or none), as pages checks
                                                                            a form's CrmList at save
    POST   /internal/v1/tenants/{tenant}/listas                             upsert by slug: 201
    POST   /internal/v1/tenants/{tenant}/listas/{id}/membros                add members
    DELETE /internal/v1/tenants/{tenant}/listas/{id}/membros/{contact_id}   remove one member
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.gate import tenant_of_path
from app.crm.list import service
from app.crm.list.schemas import ListWrite, MembersAdd
from app.crm.list.v1 import add_answer, lists_answer, remove_answer, upsert_answer
from app.crm.list.views import ADDED, LIST, LISTS, list_view
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import reply

bp = Blueprint("crm_internal_lists", url_prefix="/internal/v1/tenants/<tenant:slug>")

SERVICE = "service"


@bp.get("/listas", ctx_auth=SERVICE, ctx_query=("cursor", "limit", "slug"), ctx_responses=answers({200: LISTS}))
async def list_lists(request: Request, tenant: str) -> HTTPResponse:
    """The account's lists with their member counts (``slug``: only the list of that slug)."""
    account = tenant_of_path(tenant)
    slug = request.args.get("slug")
    if slug is None:
        return await lists_answer(request, account)
    conn = db.connection()
    found = await service.by_slug(conn, account, slug)
    counts = await service.member_counts(conn, [found.id]) if found else {}
    return reply(request, {"listas": [list_view(found, counts[found.id])] if found else [],
                           "proximo_cursor": None, "tem_mais": False})


@bp.post("/listas", ctx_auth=SERVICE, ctx_body=ListWrite, ctx_errors=(422,), ctx_responses=answers({201: LIST}))
async def upsert_list(request: Request, tenant: str) -> HTTPResponse:
    """Create or rename the list of this slug (201 either way)."""
    return await upsert_answer(request, tenant_of_path(tenant))


@bp.post("/listas/<list_id:id>/membros", ctx_auth=SERVICE, ctx_body=MembersAdd, ctx_errors=(422,),
         ctx_responses=answers({200: ADDED}))
async def add_members(request: Request, tenant: str, list_id: str) -> HTTPResponse:
    """Add contacts to the list (idempotent)."""
    return await add_answer(request, tenant_of_path(tenant), list_id)


@bp.delete("/listas/<list_id:id>/membros/<contact_id:id>", ctx_auth=SERVICE, ctx_responses=answers({204: NO_CONTENT}))
async def remove_member(request: Request, tenant: str, list_id: str, contact_id: str) -> HTTPResponse:
    """Remove a contact from the list (idempotent)."""
    return await remove_answer(tenant_of_path(tenant), list_id, contact_id)
