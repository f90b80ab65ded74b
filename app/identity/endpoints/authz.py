"""Authorization routes (service credential): decide, catalog, grants, subscriptions, decisions.

``GET /v1/authz/eu`` also accepts a user's own session (then ``sub`` is that user).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError

from app.http.query import int_param
from app.http.responses import no_content, reply
from app.identity import authz, credentials, errors
from app.identity.authz import database_or_503
from app.identity.bodies import SnakeBody, read_body
from app.identity.sessions import require_session
from models.identity import AccessGrant, AuthzDecision, Product, TenantProduct

bp = Blueprint("identity_authz")


@bp.on_request
async def catalog_ready(request: Request) -> None:
    async with database_or_503():
        await authz.ensure_catalog()


class DecideBody(SnakeBody):
    sub: str
    tenant: str
    produto: str
    papel: str | None = None


class GrantBody(SnakeBody):
    user_id: str
    produto: str
    papel: str


class SubscriptionBody(SnakeBody):
    produto: str
    status: str


def _tenant(tenant_id: str) -> str:
    if not tenant_id or len(tenant_id) > 64:
        raise errors.NotFound("No such tenant.")
    return tenant_id


def _flag(request: Request, name: str) -> bool:
    raw = (request.args.get(name) or "false").lower()
    if raw not in ("true", "false", "1", "0"):
        raise errors.Unprocessable(f"Query parameter {name!r} must be true or false.",
                                   details={name: "must be true or false"})
    return raw in ("true", "1")


@bp.post("/v1/authz/decide")
async def decide(request: Request) -> HTTPResponse:
    credentials.require_service(request)
    body = read_body(request, DecideBody)
    async with database_or_503():
        decision = await authz.decide(sub=body.sub, tenant=body.tenant, produto=body.produto, papel=body.papel)
    return reply(request, decision.json())


@bp.get("/v1/authz/eu", ctx_query=("sub", "tenant"))
async def me(request: Request) -> HTTPResponse:
    if credentials.is_service(request):
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
        grants = await AccessGrant.filter(tenant=tenant, user__public_id=sub).prefetch_related("product")
        subscriptions = {s.product_id: s.status for s in await TenantProduct.filter(tenant=tenant)}
    return reply(request, {"sub": sub, "tenant": tenant, "acessos": [
        {"produto": g.product.key, "papel": g.role, "nivel": authz.level_of(g.product, g.role),
         "assinatura": subscriptions.get(g.product_id)} for g in grants]})


@bp.get("/v1/authz/produtos")
async def catalog(request: Request) -> HTTPResponse:
    credentials.require_service(request)
    async with database_or_503():
        products = await Product.all().order_by("key")
    return reply(request, {"produtos": [{"produto": p.key, "nome": p.name, "papeis": p.roles} for p in products]})


def grant_json(grant: AccessGrant) -> dict:
    return {"user_id": grant.user.public_id, "produto": grant.product.key, "papel": grant.role,
            "nivel": authz.level_of(grant.product, grant.role), "atualizado_em": grant.updated_at.isoformat()}


@bp.get("/v1/tenants/<tenant_id:str>/acessos", ctx_query=("produto", "user_id"))
async def list_grants(request: Request, tenant_id: str) -> HTTPResponse:
    credentials.require_service(request)
    query = AccessGrant.filter(tenant=_tenant(tenant_id))
    if produto := request.args.get("produto"):
        query = query.filter(product__key=produto)
    if user_id := request.args.get("user_id"):
        query = query.filter(user__public_id=user_id)
    async with database_or_503():
        grants = await query.order_by("id").prefetch_related("user", "product")
    return reply(request, {"acessos": [grant_json(g) for g in grants]})


@bp.post("/v1/tenants/<tenant_id:str>/acessos")
async def grant(request: Request, tenant_id: str) -> HTTPResponse:
    credentials.require_service(request)
    tenant = _tenant(tenant_id)
    body = read_body(request, GrantBody)
    async with database_or_503():
        product = await authz.product_by_key(body.produto)
        if authz.level_of(product, body.papel) is None:
            declared = ", ".join(r["papel"] for r in product.roles)
            raise errors.UndeclaredRole(f"The product {body.produto!r} does not declare the role {body.papel!r}; "
                                        f"declared: {declared}.", details={"papel": "not declared by the product"})
        user = await authz.user_by_public_id(body.user_id)
        existing = await AccessGrant.get_or_none(tenant=tenant, user=user, product=product)
        if existing is None:
            try:
                existing = await AccessGrant.create(tenant=tenant, user=user, product=product, role=body.papel)
                status = 201
            except IntegrityError:
                existing = await AccessGrant.get(tenant=tenant, user=user, product=product)
                status = 200
        else:
            status = 200
        if existing.role != body.papel:
            existing.role = body.papel
            await existing.save(update_fields=["role", "updated_at"])
        existing.user, existing.product = user, product
    return reply(request, {"acesso": grant_json(existing)}, status=status)


@bp.delete("/v1/tenants/<tenant_id:str>/acessos/<user_id:str>/<produto:str>")
async def revoke_grant(request: Request, tenant_id: str, user_id: str, produto: str) -> HTTPResponse:
    credentials.require_service(request)
    async with database_or_503():
        await AccessGrant.filter(tenant=_tenant(tenant_id), user__public_id=user_id, product__key=produto).delete()
    return no_content()


@bp.get("/v1/tenants/<tenant_id:str>/authz/decisoes", ctx_query=("negadas", "limite"))
async def decisions(request: Request, tenant_id: str) -> HTTPResponse:
    credentials.require_service(request)
    limit = int_param(request, "limite", default=50, low=1, high=500)
    query = AuthzDecision.filter(tenant=_tenant(tenant_id))
    if _flag(request, "negadas"):
        query = query.filter(allowed=False)
    async with database_or_503():
        rows = await query.order_by("-id").limit(limit)
    return reply(request, {"decisoes": [
        {"sub": r.subject, "produto": r.product, "permitido": r.allowed, "motivo": r.reason, "papel": r.role,
         "nivel": r.level, "em": r.created_at.isoformat()} for r in rows]})


@bp.get("/v1/tenants/<tenant_id:str>/produtos")
async def list_subscriptions(request: Request, tenant_id: str) -> HTTPResponse:
    credentials.require_service(request)
    async with database_or_503():
        rows = await TenantProduct.filter(tenant=_tenant(tenant_id)).prefetch_related("product").order_by("id")
    return reply(request, {"produtos": [{"produto": r.product.key, "status": r.status,
                                         "atualizado_em": r.updated_at.isoformat()} for r in rows]})


@bp.post("/v1/tenants/<tenant_id:str>/produtos")
async def subscribe(request: Request, tenant_id: str) -> HTTPResponse:
    credentials.require_service(request)
    tenant = _tenant(tenant_id)
    body = read_body(request, SubscriptionBody)
    if body.status not in authz.SUBSCRIPTION_STATES:
        raise errors.InvalidInput(f"Field 'status': one of {', '.join(authz.SUBSCRIPTION_STATES)}.",
                                  details={"status": "invalid"})
    async with database_or_503():
        product = await authz.product_by_key(body.produto)
        row = await TenantProduct.get_or_none(tenant=tenant, product=product)
        if row is None:
            try:
                row = await TenantProduct.create(tenant=tenant, product=product, status=body.status)
            except IntegrityError:
                row = await TenantProduct.get(tenant=tenant, product=product)
        if row.status != body.status:
            row.status = body.status
            await row.save(update_fields=["status", "updated_at"])
    return reply(request, {"produto": product.key, "status": row.status,
                           "atualizado_em": row.updated_at.isoformat()})
