"""The account's sending domains on the dashboard (for the console's domains screen; docs/mail.md):

    GET    /api/domains                  200 {Domains}
    POST   /api/domains                  201 {Domain} (200 when it was there): every record to publish; 409
    GET    /api/domains/{name}           200 {Domain}
    POST   /api/domains/{name}/verify    200 {Domain} verified; 422 DomainNotVerified naming what is
                                         missing; 503 VerificacaoIndisponivel with Retry-After; 409
           ?watch=1                      a page following an unverified domain: 200 {Domain} as it
                                         stands whatever DNS said; DNS asked at most once per
                                         WATCH_SECONDS per domain, however many pages watch it
    DELETE /api/domains/{name}           204

The account is the one the gate resolved from ``X-Service-Tenant`` (app/platform/gate/api.py);
reading needs membership, the writes the ``admin`` role. The attempt is recorded whatever DNS said.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import load_json, validate
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.domain import service
from app.platform.domain.schemas import DomainAdd
from app.platform.domain.views import DOMAIN, DOMAINS, domain_view
from app.platform.gate import api as gate
from models.platform.domain import CheckOutcome

bp = Blueprint("platform_dashboard_domain")

MAX_BODY = 4 * 1024


def _mail_domain(request: Request) -> str:
    return request.app.ctx.settings.mail_domain


@bp.get("/api/domains", ctx_auth="session", ctx_tenant="header", ctx_errors=(403,),
        ctx_responses=answers({200: DOMAINS}))
async def list_domains(request: Request) -> HTTPResponse:
    """The account's sending domains by name, each with its records and last check."""
    conn = db.connection()
    rows = await service.account_domains(conn, gate.tenant(request).tenant_pk)
    return reply(request, {"Domains": [domain_view(row, _mail_domain(request), await service.last_check(conn, row))
                                       for row in rows]})


@bp.post("/api/domains", ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=DomainAdd,
         ctx_errors=(403, 409, 422), ctx_responses=answers({201: DOMAIN, 200: DOMAIN}))
async def add_domain(request: Request) -> HTTPResponse:
    """Adds a sending domain, unverified; the answer lists every DNS record to publish."""
    body = validate(load_json(request, max_bytes=MAX_BODY), DomainAdd)
    domain, made = await service.add_account_domain(db.connection(), gate.tenant(request).tenant_pk, body.name,
                                                    dmarc=body.dmarc)
    return reply(request, {"Domain": domain_view(domain, _mail_domain(request))}, status=201 if made else 200)


@bp.get("/api/domains/<name:str>", ctx_auth="session", ctx_tenant="header", ctx_errors=(403,),
        ctx_responses=answers({200: DOMAIN}))
async def get_domain(request: Request, name: str) -> HTTPResponse:
    """Retrieve one of the account's sending domains: its DNS records, their state and the last check.

    Any member of the account (`X-Service-Tenant`); 404 for a domain the account does not have."""
    conn = db.connection()
    domain = await service.account_domain(conn, gate.tenant(request).tenant_pk, name)
    return reply(request, {"Domain": domain_view(domain, _mail_domain(request), await service.last_check(conn, domain))})


@bp.post("/api/domains/<name:str>/verify", ctx_auth="session", ctx_tenant="header", ctx_role="admin",
         ctx_query=("watch",), ctx_errors=(403, 409, 422, 503), ctx_responses=answers({200: DOMAIN}))
async def verify_domain(request: Request, name: str) -> HTTPResponse:
    """Checks the domain's records in DNS now; the attempt is recorded whatever DNS said.
    ``?watch=1``: the domain as it stands (200 whatever DNS said), checked again only when no
    check of it ran in the last WATCH_SECONDS (polling pages never multiply DNS queries)."""
    settings = request.app.ctx.settings
    conn, tenant_pk = db.connection(), gate.tenant(request).tenant_pk
    if request.args.get("watch") == "1":
        domain = await service.account_domain(conn, tenant_pk, name)
        if domain.verified or not await service.claim_watch(request.app.ctx.redis, domain):
            return reply(request, {"Domain": domain_view(domain, settings.mail_domain,
                                                         await service.last_check(conn, domain))})
    domain, check = await service.verify_account_domain(conn, tenant_pk, name,
                                                        nameservers=settings.dns_nameservers,
                                                        mail_domain=settings.mail_domain)
    if request.args.get("watch") == "1" and check.outcome != CheckOutcome.CONFLICT:
        return reply(request, {"Domain": domain_view(domain, settings.mail_domain, check)})
    service.raise_for(check)
    return reply(request, {"Domain": domain_view(domain, settings.mail_domain, check)})


@bp.delete("/api/domains/<name:str>", ctx_auth="session", ctx_tenant="header", ctx_role="admin",
           ctx_errors=(403,), ctx_responses=answers({204: NO_CONTENT}))
async def remove_domain(request: Request, name: str) -> HTTPResponse:
    """Remove a sending domain from the account; nothing more is sent from it.

    Owners and admins (`X-Service-Tenant`); 204 when done, 404 for a domain the account does not have."""
    async with db.transaction() as conn:
        await service.remove_account_domain(conn, gate.tenant(request).tenant_pk, name)
    return no_content()
