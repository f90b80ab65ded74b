"""Pages (scopes ``pages:read``, ``pages:write``, ``pages:publish``):

    GET/POST /v1/paginas                              list (keyset), create a draft
    GET/PATCH/DELETE /v1/paginas/{id}                 one page; PATCH touches only the fields sent;
                                                      DELETE an unpublished page (409 while published)
    POST /v1/paginas/{id}/publicar                    the draft goes live as version N+1 (pages:publish)
    POST /v1/paginas/{id}/despublicar                 off the air; versions kept (pages:publish)
    GET /v1/paginas/{id}/versoes                      every published version, newest first
    POST /v1/paginas/{id}/versoes/{n}/restaurar       version n back into the draft (pages:write)

docs/pages.md is the reference.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.pages import db
from app.pages.gate.v1 import tenant_of
from app.pages.page import service
from app.pages.page.schemas import MAX_BODY_BYTES, PageCreate, PagePatch
from app.pages.page.views import PAGE, PAGES, PUBLISHED, VERSIONS, page_view, version_view

bp = Blueprint("v1_pages", url_prefix="/v1")


@bp.get("/paginas", ctx_scope="pages:read", ctx_query=("cursor", "limit"), ctx_responses=answers({200: PAGES}))
async def list_pages(request: Request) -> HTTPResponse:
    """The account's pages, newest first."""
    found = await service.list_pages(db.connection(), tenant_of(request),
                                     KeysetPage.of(request, default_limit=20, max_limit=100))
    return reply(request, {"Paginas": [page_view(page) for page in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


@bp.post("/paginas", ctx_scope="pages:write", ctx_body=PageCreate, ctx_errors=(409, 422),
         ctx_responses=answers({201: PAGE}))
async def create_page(request: Request) -> HTTPResponse:
    """A new page, as a draft."""
    body = parse_body(request, PageCreate, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        page = await service.create_page(conn, tenant_of(request), **body.values())
    return reply(request, {"Pagina": page_view(page)}, status=201)


@bp.get("/paginas/<page_id:id>", ctx_scope="pages:read", ctx_responses=answers({200: PAGE}))
async def get_page(request: Request, page_id: str) -> HTTPResponse:
    """One page with its draft content."""
    return reply(request, {"Pagina": page_view(await service.find(db.connection(), tenant_of(request), page_id))})


@bp.patch("/paginas/<page_id:id>", ctx_scope="pages:write", ctx_body=PagePatch, ctx_errors=(409, 422),
          ctx_responses=answers({200: PAGE}))
async def update_page(request: Request, page_id: str) -> HTTPResponse:
    """Changes the draft: only the fields sent."""
    changes = parse_body(request, PagePatch, max_bytes=MAX_BODY_BYTES).changes()
    async with db.transaction() as conn:
        page = await service.update_page(conn, tenant_of(request), page_id, changes)
    return reply(request, {"Pagina": page_view(page)})


@bp.delete("/paginas/<page_id:id>", ctx_scope="pages:write", ctx_errors=(409,),
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_page(request: Request, page_id: str) -> HTTPResponse:
    """Deletes an unpublished page with its versions, routing and experiments (409 while published)."""
    async with db.transaction() as conn:
        await service.delete_page(conn, tenant_of(request), page_id)
    return no_content()


@bp.post("/paginas/<page_id:id>/publicar", ctx_scope="pages:publish", ctx_errors=(422,),
         ctx_responses=answers({200: PUBLISHED}))
async def publish(request: Request, page_id: str) -> HTTPResponse:
    """Publishes the draft as a new version."""
    async with db.transaction() as conn:
        page, version = await service.publish(conn, tenant_of(request), page_id)
    return reply(request, {"Pagina": page_view(page), "Versao": version_view(version, page.live_version)})


@bp.post("/paginas/<page_id:id>/despublicar", ctx_scope="pages:publish", ctx_responses=answers({200: PAGE}))
async def unpublish(request: Request, page_id: str) -> HTTPResponse:
    """Takes the page off the air (its versions stay)."""
    async with db.transaction() as conn:
        page = await service.unpublish(conn, tenant_of(request), page_id)
    return reply(request, {"Pagina": page_view(page)})


@bp.get("/paginas/<page_id:id>/versoes", ctx_scope="pages:read", ctx_responses=answers({200: VERSIONS}))
async def list_versions(request: Request, page_id: str) -> HTTPResponse:
    """Every published version, newest first; ``Live`` marks the one on the air."""
    page, found = await service.versions(db.connection(), tenant_of(request), page_id)
    return reply(request, {"Versoes": [version_view(version, page.live_version) for version in found]})


@bp.post("/paginas/<page_id:id>/versoes/<number:int>/restaurar", ctx_scope="pages:write", ctx_errors=(409,),
         ctx_responses=answers({200: PAGE}))
async def restore_version(request: Request, page_id: str, number: int) -> HTTPResponse:
    """Copies a version back into the draft (publish to put it live)."""
    async with db.transaction() as conn:
        page = await service.restore(conn, tenant_of(request), page_id, number)
    return reply(request, {"Pagina": page_view(page)})
