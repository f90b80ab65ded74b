"""The account's templates with an API key (docs/templates.md), on the dashboard's service:

    GET    /v1/templates          templates:read    {Templates, NextCursor, HasMore}, newest first
    POST   /v1/templates          templates:write   201 {Template}; 409 Conflict when the slug is taken
    GET    /v1/templates/{id}     templates:read    {Template}
    PATCH  /v1/templates/{id}     templates:write   {Template}: the fields given replace the template's
    DELETE /v1/templates/{id}     templates:write   204

Templates belong to the account, not to a key's mode: live sends render them, and a WhatsApp template
goes to the provider's review when made or changed. So a test key reads them (its sends render them
too) but its writes are 403 ``PermissionDenied``: nothing a test key does reaches a real provider or
changes a live send. Another account's template answers 404 like a missing one.
Every write runs the template's checks and trial render (``service.vet``) before its transaction, as
POST /api/templates does; the cap of templates per account is the dashboard's (409 ``LimitExceeded``).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate.v1 import live_principal_of, principal_of
from app.platform.template import service
from app.platform.template.schemas import TemplateChange, TemplateCreate
from app.platform.template.views import TEMPLATE, TEMPLATE_PAGE, template_view

bp = Blueprint("v1_templates", url_prefix="/v1")

WHAT = "the account's templates"
READ = "templates:read"
WRITE = "templates:write"
# The largest template (1 MB of HTML, 100 kB of text, the subject) and its JSON escaping fit.
MAX_BODY = 2 * 1024 * 1024
DEFAULT_LIMIT = 20
MAX_LIMIT = 100


@bp.get("/templates", ctx_scope=READ, ctx_query=("cursor", "limit"), ctx_responses=answers({200: TEMPLATE_PAGE}))
async def list_templates(request: Request) -> HTTPResponse:
    """The account's templates, a page at a time."""
    principal = principal_of(request)
    page = KeysetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await service.page_of_templates(db.connection(), principal.tenant_pk, principal.tenant_id, page)
    return reply(request, {"Templates": [template_view(row) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/templates", ctx_scope=WRITE, ctx_body=TemplateCreate, ctx_errors=(409, 413, 422),
         ctx_responses=answers({201: TEMPLATE}))
async def create_template(request: Request) -> HTTPResponse:
    """Create a template (409 when the account already has one of that slug)."""
    body = parse_body(request, TemplateCreate, max_bytes=MAX_BODY)
    tenant_pk = live_principal_of(request, WHAT).tenant_pk
    await service.vet(body)  # the trial render, before the transaction: no connection held meanwhile
    async with db.transaction() as conn:
        template = await service.create(conn, tenant_pk, body)
    return reply(request, {"Template": template_view(template)}, status=201)


@bp.get("/templates/<template_id:id>", ctx_scope=READ, ctx_responses=answers({200: TEMPLATE}))
async def get_template(request: Request, template_id: str) -> HTTPResponse:
    """One template: its slug, channel, name, subject and bodies."""
    template = await service.template_of(db.connection(), principal_of(request).tenant_pk, template_id)
    return reply(request, {"Template": template_view(template)})


@bp.patch("/templates/<template_id:id>", ctx_scope=WRITE, ctx_body=TemplateChange, ctx_errors=(413, 422),
          ctx_responses=answers({200: TEMPLATE}))
async def update_template(request: Request, template_id: str) -> HTTPResponse:
    """Change a template's name, subject or bodies (its slug and channel stay)."""
    change = parse_body(request, TemplateChange, max_bytes=MAX_BODY)
    tenant_pk = live_principal_of(request, WHAT).tenant_pk
    current = await service.template_of(db.connection(), tenant_pk, template_id)
    body = change.applied_to(current.slug, current.channel, {
        "name": current.name, "subject": current.subject, "text": current.text, "html": current.html,
        "language": current.language})
    await service.vet(body)
    async with db.transaction() as conn:
        template = await service.replace(conn, tenant_pk, template_id, body)
    return reply(request, {"Template": template_view(template)})


@bp.delete("/templates/<template_id:id>", ctx_scope=WRITE, ctx_responses=answers({204: NO_CONTENT}))
async def delete_template(request: Request, template_id: str) -> HTTPResponse:
    """Delete a template."""
    async with db.transaction() as conn:
        await service.delete(conn, live_principal_of(request, WHAT).tenant_pk, template_id)
    return no_content()
