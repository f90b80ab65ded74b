"""The sender domains of an account, for the mail system (service credential; docs/mail.md):

    GET    /internal/v1/tenants/{account}/domains                  200 {Domains}
    POST   /internal/v1/tenants/{account}/domains                  201 {Domain} (200 when it was there); 409
    GET    /internal/v1/tenants/{account}/domains/{name}           200 {Domain}
    POST   /internal/v1/tenants/{account}/domains/{name}/verify    200 {Domain, Outcome}; 409
    DELETE /internal/v1/tenants/{account}/domains/{name}           204

The verify route answers 200 whatever DNS said (``Outcome``: ``verified``, ``failed``,
``unreachable``; ``Missing``: the required records not found; ``RetryAfter`` when DNS did not
answer): the attempt is recorded either way, and the mail system turns the outcome into its own
answer (422 naming what is missing, 503 with Retry-After), so a DNS outage never reads as the
platform failing. A name an account outside this one's tree verified first is 409. A domain of another account answers 404 like a missing one.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers, described, reply_of
from app.http.responses import no_content, reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.domain import service
from app.platform.domain.schemas import DomainAdd
from app.platform.domain.views import DOMAIN, DOMAIN_SHAPE, DOMAINS, FOUND, domain_view
from models.platform.domain import UNREACHABLE_RECHECK_SECONDS, CheckOutcome

bp = Blueprint("internal_domains", url_prefix="/internal/v1/tenants/<account:slug>/domains")

VERIFIED = reply_of(
    Domain=described(DOMAIN_SHAPE, "The sender domain, after the attempt."),
    Outcome=described({"enum": ["verified", "failed", "unreachable"]},
                      "verified, failed (a required record missing or different) or unreachable (DNS did not answer)."),
    Missing=described({"type": "array", "items": FOUND}, "The required records not found."),
    RetryAfter=described({"type": "integer"}, "unreachable: the seconds before the next attempt."))


def _mail_domain(request: Request) -> str:
    return request.app.ctx.settings.mail_domain


@bp.get("", ctx_auth="service", ctx_responses=answers({200: DOMAINS}))
async def list_domains(request: Request, account: str) -> HTTPResponse:
    """The account's sender domains by name, with the records to publish."""
    require_service_credential(request)
    conn = db.connection()
    rows = await service.account_domains(conn, await service.tenant_pk_of(conn, account))
    return reply(request, {"Domains": [domain_view(row, _mail_domain(request), await service.last_check(conn, row))
                                       for row in rows]})


@bp.post("", ctx_auth="service", ctx_body=DomainAdd, ctx_errors=(404, 409, 422),
         ctx_responses=answers({201: DOMAIN, 200: DOMAIN}))
async def add_domain(request: Request, account: str) -> HTTPResponse:
    """Adds a domain (unverified, with its DKIM key pair); the answer lists every record to publish."""
    require_service_credential(request)
    body = parse_body(request, DomainAdd)
    conn = db.connection()
    domain, made = await service.add_account_domain(conn, await service.tenant_pk_of(conn, account), body.name,
                                                    dmarc=body.dmarc)
    return reply(request, {"Domain": domain_view(domain, _mail_domain(request))}, status=201 if made else 200)


@bp.get("/<name:str>", ctx_auth="service", ctx_responses=answers({200: DOMAIN}))
async def get_domain(request: Request, account: str, name: str) -> HTTPResponse:
    """Retrieve one account's sending domain, for Herald's other systems.

    Service credential only. 404 for an unknown account or a domain it does not have."""
    require_service_credential(request)
    conn = db.connection()
    domain = await service.account_domain(conn, await service.tenant_pk_of(conn, account), name)
    return reply(request, {"Domain": domain_view(domain, _mail_domain(request), await service.last_check(conn, domain))})


@bp.post("/<name:str>/verify", ctx_auth="service", ctx_errors=(409,), ctx_responses=answers({200: VERIFIED}))
async def verify_domain(request: Request, account: str, name: str) -> HTTPResponse:
    """Checks the domain's records in DNS now and records the attempt; the outcome is in the body."""
    require_service_credential(request)
    conn = db.connection()
    settings = request.app.ctx.settings
    domain, check = await service.verify_account_domain(conn, await service.tenant_pk_of(conn, account), name,
                                                        nameservers=settings.dns_nameservers,
                                                        mail_domain=settings.mail_domain)
    if check.outcome == CheckOutcome.CONFLICT:
        raise service.OwnedElsewhere()
    body = {"Domain": domain_view(domain, settings.mail_domain, check), "Outcome": check.outcome,
            "Missing": service.missing_records(check)}
    if check.outcome == CheckOutcome.UNREACHABLE:
        body["RetryAfter"] = UNREACHABLE_RECHECK_SECONDS
    return reply(request, body)


@bp.delete("/<name:str>", ctx_auth="service", ctx_responses=answers({204: NO_CONTENT}))
async def remove_domain(request: Request, account: str, name: str) -> HTTPResponse:
    """Removes the domain: its mail can no longer be sent (queued messages fail at delivery)."""
    require_service_credential(request)
    async with db.transaction() as conn:
        await service.remove_account_domain(conn, await service.tenant_pk_of(conn, account), name)
    return no_content()
