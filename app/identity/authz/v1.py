"""Authorization over the JSON API (service credential): decide, catalog, grants, subscriptions,
recent decisions. ``GET /v1/authz/eu`` also accepts a user's own session (then ``sub`` is that
user). A database failure answers 503, never a deny (``service.database_or_503``)."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.query import int_param
from app.http.responses import no_content, reply
from app.http.openapi import NO_CONTENT, answers
from app.identity import errors
from app.identity.authz import service, views
from app.identity.authz.schemas import DecideBody, GrantBody, SubscriptionBody
from app.identity.authz.service import database_or_503
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import is_service, require_service, require_session

bp = Blueprint("identity_authz")


@bp.on_request
async def catalog_ready(request: Request) -> None:
    async with database_or_503():
        await service.ensure_catalog()


def _flag(request: Request, name: str) -> bool:
    raw = (request.args.get(name) or "false").lower()
    if raw not in ("true", "false", "1", "0"):
        raise errors.Unprocessable(f"Query parameter {name!r} must be true or false.",
                                   details={name: "must be true or false"})
    return raw in ("true", "1")


@bp.post("/v1/authz/decide", ctx_auth="service", ctx_body=DecideBody)
async def decide(request: Request) -> HTTPResponse:
    """Decide whether a user may use a product in an account (and with which role): `{permitido, motivo, papel, nivel}`.

    Service credential only. 422 `UndeclaredRole` when `papel` is not declared; 503 on a database error, never a deny.
    """
    require_service(request)
    body = read_body(request, DecideBody)
    async with database_or_503():
        decision = await service.decide(sub=body.sub, tenant=body.tenant, product_key=body.produto,
                                        role=body.papel, session_id=body.sessao)
    return reply(request, views.decision_json(decision))


@bp.get("/v1/authz/eu", ctx_query=("sub", "tenant"), ctx_auth="session|service")
async def me(request: Request) -> HTTPResponse:
    """List a user's grants in an account.

    The service credential (query `sub` and `tenant`) or the user's own session (query `tenant`). 400 `InvalidInput`
    without them."""
    if is_service(request):
        sub = request.args.get("sub")
        if not sub:
            raise errors.InvalidInput("Query parameter 'sub' is required with the service credential.",
                                      details={"sub": "required"})
    else:
        sub = (await require_session(request)).user.public_id
    tenant = request.args.get("tenant")
    if not tenant:
        raise errors.InvalidInput("Query parameter 'tenant' is required.", details={"tenant": "required"})
    async with database_or_503():
        grants, subscriptions = await service.grants_of(tenant, sub)
    return reply(request, {"sub": sub, "tenant": tenant,
                           "acessos": [views.access_json(g, subscriptions) for g in grants]})


@bp.get("/v1/authz/produtos", ctx_auth="service")
async def catalog(request: Request) -> HTTPResponse:
    """List the product catalogue: each product with its roles and their levels.

    Service credential only."""
    require_service(request)
    async with database_or_503():
        products = await service.catalog()
    return reply(request, {"produtos": [views.product_json(p) for p in products]})


@bp.get("/v1/tenants/<tenant_id:slug>/acessos", ctx_query=("produto", "user_id"), ctx_auth="service")
async def list_grants(request: Request, tenant_id: str) -> HTTPResponse:
    """List an account's grants, optionally of one product (`produto`) or user (`user_id`).

    Service credential only."""
    require_service(request)
    tenant = service.check_tenant(tenant_id)
    async with database_or_503():
        grants = await service.list_grants(tenant, product_key=request.args.get("produto"),
                                           user_id=request.args.get("user_id"))
    return reply(request, {"acessos": [views.grant_json(g) for g in grants]})


@bp.post("/v1/tenants/<tenant_id:slug>/acessos", ctx_auth="service", ctx_body=GrantBody,
         ctx_responses=answers({200: None, 201: None}))
async def grant(request: Request, tenant_id: str) -> HTTPResponse:
    """Grant a user a role in a product of an account (201 new, 200 changed).

    Service credential only. 422 `UndeclaredRole` when `papel` is not declared for the product."""
    require_service(request)
    tenant = service.check_tenant(tenant_id)
    body = read_body(request, GrantBody)
    async with database_or_503():
        row, created = await service.grant(tenant, body.user_id, body.produto, body.papel)
    return reply(request, {"acesso": views.grant_json(row)}, status=201 if created else 200)


@bp.delete("/v1/tenants/<tenant_id:slug>/acessos/<user_id:id>/<produto:slug>", ctx_auth="service",
           ctx_responses=answers({204: NO_CONTENT}))
async def revoke_grant(request: Request, tenant_id: str, user_id: str, produto: str) -> HTTPResponse:
    """Revoke a user's grant to a product of an account.

    Service credential only; 204 whether or not it existed."""
    require_service(request)
    async with database_or_503():
        await service.revoke_grant(service.check_tenant(tenant_id), user_id, produto)
    return no_content()


@bp.get("/v1/tenants/<tenant_id:slug>/authz/decisoes", ctx_query=("negadas", "limite"), ctx_auth="service")
async def decisions(request: Request, tenant_id: str) -> HTTPResponse:
    """List an account's recent authorization decisions, newest first.

    Service credential only. `negadas` (`true`/`false`) keeps the denials; `limite` 1 to 500 (default 50)."""
    require_service(request)
    limit = int_param(request, "limite", default=50, low=1, high=500)
    tenant = service.check_tenant(tenant_id)
    denied_only = _flag(request, "negadas")
    async with database_or_503():
        rows = await service.recent_decisions(tenant, denied_only=denied_only, limit=limit)
    return reply(request, {"decisoes": [views.recorded_decision_json(r) for r in rows]})


@bp.get("/v1/tenants/<tenant_id:slug>/produtos", ctx_auth="service")
async def list_subscriptions(request: Request, tenant_id: str) -> HTTPResponse:
    """List an account's product subscriptions.

    Service credential only."""
    require_service(request)
    tenant = service.check_tenant(tenant_id)
    async with database_or_503():
        rows = await service.subscriptions_of(tenant)
    return reply(request, {"produtos": [views.subscription_json(r) for r in rows]})


@bp.post("/v1/tenants/<tenant_id:slug>/produtos", ctx_auth="service", ctx_body=SubscriptionBody)
async def subscribe(request: Request, tenant_id: str) -> HTTPResponse:
    """Set an account's subscription to a product: `ativo`, `suspenso` or `cancelado`.

    Service credential only."""
    require_service(request)
    tenant = service.check_tenant(tenant_id)
    body = read_body(request, SubscriptionBody)
    async with database_or_503():
        row = await service.subscribe(tenant, body.produto, body.status)
    return reply(request, {"produto": row.product.key, "status": row.status,
                           "atualizado_em": row.updated_at.isoformat()})
