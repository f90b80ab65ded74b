"""Sending domains of the account, through the platform (scope ``mail:admin``):

    GET    /v1/domains                 {domains}
    POST   /v1/domains                 201 {domain} with every record to publish (200 when it was there);
                                       409 Conflict when an account outside this one's tree verified it
    GET    /v1/domains/{name}          {domain} with its last check
    POST   /v1/domains/{name}/verify   200 {domain} verified; 422 DomainNotVerified naming what is missing;
                                       503 VerificacaoIndisponivel with Retry-After (the attempt recorded either way)
    DELETE /v1/domains/{name}          204
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.mail import platform
from app.mail.domain import service
from app.mail.domain.schemas import DomainAdd
from app.mail.domain.views import DOMAIN, DOMAINS, domain_view
from app.mail.gate import MANAGE, caller_of

bp = Blueprint("v1_domains", url_prefix="/v1")


@bp.get("/domains", ctx_scope=MANAGE, ctx_session_role="leitor", ctx_responses=answers({200: DOMAINS}))
async def list_domains(request: Request) -> HTTPResponse:
    """The account's sending domains by name."""
    found = await service.list_domains(platform.client(request.app), caller_of(request))
    return reply(request, {"domains": [domain_view(row) for row in found]})


@bp.post("/domains", ctx_scope=MANAGE, ctx_body=DomainAdd, ctx_errors=(409, 422),
         ctx_responses=answers({201: DOMAIN, 200: DOMAIN}))
async def add_domain(request: Request) -> HTTPResponse:
    """Adds a sending domain, unverified; the answer lists every DNS record to publish."""
    body = parse_body(request, DomainAdd)
    domain, made = await service.add_domain(platform.client(request.app), caller_of(request), body.name, body.dmarc)
    return reply(request, {"domain": domain_view(domain)}, status=201 if made else 200)


@bp.get("/domains/<name:str>", ctx_scope=MANAGE, ctx_session_role="leitor", ctx_responses=answers({200: DOMAIN}))
async def get_domain(request: Request, name: str) -> HTTPResponse:
    """One of the account's mail domains: its state and the DNS records it needs."""
    domain = await service.get_domain(platform.client(request.app), caller_of(request), name)
    return reply(request, {"domain": domain_view(domain)})


@bp.post("/domains/<name:str>/verify", ctx_scope=MANAGE, ctx_errors=(409, 422, 503),
         ctx_responses=answers({200: DOMAIN}))
async def verify_domain(request: Request, name: str) -> HTTPResponse:
    """Checks the domain's records in DNS now."""
    domain = await service.verify_domain(platform.client(request.app), caller_of(request), name)
    return reply(request, {"domain": domain_view(domain)})


@bp.delete("/domains/<name:str>", ctx_scope=MANAGE, ctx_responses=answers({204: NO_CONTENT}))
async def remove_domain(request: Request, name: str) -> HTTPResponse:
    """Removes the domain; its mailboxes stay, but cannot send until it is added and verified again."""
    await service.remove_domain(platform.client(request.app), caller_of(request), name)
    return no_content()
