"""Custom domains (scopes ``pages:read``, ``pages:write``):

    GET/POST /v1/dominios                   list; add (created unverified, with the record to publish)
    GET/DELETE /v1/dominios/{id}            one; delete (the only way to withdraw TLS authorization)
    POST /v1/dominios/{id}/verificar        look the TXT record up now; the attempt is recorded either way:
                                            200 verified, 422 DomainNotVerified (what to publish),
                                            503 VerificacaoIndisponivel with Retry-After (DNS did not answer)
"""

from __future__ import annotations

from pydantic import Field, field_validator
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import Body, example, parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.pages import db, validation
from app.pages.domain import service
from app.pages.domain.views import DOMAIN, DOMAINS, domain_view
from app.pages.gate.v1 import tenant_of

bp = Blueprint("v1_domains", url_prefix="/v1")


class DomainCreate(Body):
    model_config = example({"Name": "www.example.com"})
    name: str = Field(max_length=253)
    """The custom domain (a host name such as `www.example.com`)."""

    _name = field_validator("name")(classmethod(lambda cls, value: validation.host(value)))


@bp.get("/dominios", ctx_scope="pages:read", ctx_query=("cursor", "limit"), ctx_responses=answers({200: DOMAINS}))
async def list_domains(request: Request) -> HTTPResponse:
    """The account's custom domains, newest first."""
    conn = db.connection()
    paging = KeysetPage.of(request, default_limit=20, max_limit=100)
    found = await service.list_domains(conn, tenant_of(request), paging)
    return reply(request, {"Dominios": [domain_view(row, await service.last_check(conn, row)) for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/dominios", ctx_scope="pages:write", ctx_body=DomainCreate, ctx_errors=(409,),
         ctx_responses=answers({201: DOMAIN}))
async def add_domain(request: Request) -> HTTPResponse:
    """Adds a domain, unverified; the answer says which TXT record to publish."""
    body = parse_body(request, DomainCreate)
    async with db.transaction() as conn:
        domain = await service.create(conn, tenant_of(request), body.name)
    return reply(request, {"Dominio": domain_view(domain)}, status=201)


@bp.get("/dominios/<domain_id:id>", ctx_scope="pages:read", ctx_responses=answers({200: DOMAIN}))
async def get_domain(request: Request, domain_id: str) -> HTTPResponse:
    """One domain with its last verification attempt."""
    conn = db.connection()
    domain = await service.find(conn, tenant_of(request), domain_id)
    return reply(request, {"Dominio": domain_view(domain, await service.last_check(conn, domain))})


@bp.delete("/dominios/<domain_id:id>", ctx_scope="pages:write", ctx_responses=answers({204: NO_CONTENT}))
async def delete_domain(request: Request, domain_id: str) -> HTTPResponse:
    """Removes the domain; TLS is no longer authorized for it."""
    async with db.transaction() as conn:
        await service.delete(conn, tenant_of(request), domain_id)
    return no_content()


@bp.post("/dominios/<domain_id:id>/verificar", ctx_scope="pages:write", ctx_errors=(409, 422, 503),
         ctx_responses=answers({200: DOMAIN}))
async def verify_domain(request: Request, domain_id: str) -> HTTPResponse:
    """Looks the verification record up in DNS now and records the attempt."""
    tenant = tenant_of(request)
    domain = await service.find(db.connection(), tenant, domain_id)
    if await service.held_elsewhere(db.connection(), domain):
        raise errors.Conflict("Another account has verified this domain; it must delete it first.")
    attempt = await service.look_up(domain, request.app.ctx.settings.dns_nameservers)
    async with db.transaction() as conn:
        domain = await service.record(conn, domain.id, attempt)
        check = await service.last_check(conn, domain)
    service.raise_for(attempt, domain)
    return reply(request, {"Dominio": domain_view(domain, check)})
