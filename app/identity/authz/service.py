"""Authorization decisions: may user X use product P in tenant T (at least with role R)?

The product catalog is declared here, in code (:data:`CATALOG`), and mirrored into the
``products`` table at start. A decision reads the database every time (no cache here; tools
may cache a decision for at most 60 seconds) and is recorded in ``authz_decisions``. A database
failure is 503, never a deny.

Reasons (``motivo``): ``permitido``, ``produto_desconhecido``, ``produto_nao_assinado``,
``sem_acesso``, ``papel_insuficiente``; for a session (``sessao``) inside a support seat,
``suporte`` (the entered account, read-only, ``suporte`` naming the support session) or
``suporte_outra_conta`` (any other account) (app/identity/support/service.py).

Grants and subscriptions are upserts of one row each, outside any transaction: a lost race on
the unique key is read back, which an aborted transaction could not do.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg
from tortoise.exceptions import BaseORMException, IntegrityError

from app.identity import errors
from app.identity.support.service import live_seat_of
from models.identity import AccessGrant, AuthzDecision, Product, TenantProduct, User

log = logging.getLogger("herald.identity.authz")

_ROLES = [{"papel": "leitor", "nivel": 10}, {"papel": "editor", "nivel": 20}, {"papel": "admin", "nivel": 30}]
CATALOG: dict[str, dict] = {
    "mensageria": {"name": "Herald messaging (e-mail, SMS, push, WhatsApp)", "roles": _ROLES},
    "crm": {"name": "Herald CRM", "roles": _ROLES},
    "paginas": {"name": "Herald pages", "roles": _ROLES + [{"papel": "publicador", "nivel": 25}]},
    "analytics": {"name": "Herald analytics", "roles": [{"papel": "leitor", "nivel": 10},
                                                        {"papel": "admin", "nivel": 30}]},
    "mail": {"name": "Herald mail (domains, mailboxes, POST /v1/emails)", "roles": _ROLES},
}
SUBSCRIPTION_STATES = ("ativo", "suspenso", "cancelado")


@asynccontextmanager
async def database_or_503():
    """Turns a database failure into 503 ServiceUnavailable (never a deny)."""
    try:
        yield
    except errors.HttpError:
        raise
    except (BaseORMException, asyncpg.PostgresError, asyncpg.InterfaceError, OSError, asyncio.TimeoutError) as exc:
        if isinstance(exc, IntegrityError):
            raise
        log.error("authorization store unavailable: %r", exc)
        raise errors.ServiceUnavailable("Authorization is unavailable right now; try again.", retry_after=2) from None


_catalog_synced = False


async def ensure_catalog() -> None:
    """Mirrors :data:`CATALOG` into the database once per process (at start, or on first use)."""
    global _catalog_synced
    if not _catalog_synced:
        await sync_catalog()
        _catalog_synced = True


async def sync_catalog() -> None:
    for key, spec in CATALOG.items():
        product = await Product.get_or_none(key=key)
        if product is None:
            try:
                await Product.create(key=key, name=spec["name"], roles=spec["roles"])
            except IntegrityError:  # another process did it first
                pass
        elif product.roles != spec["roles"] or product.name != spec["name"]:
            await Product.filter(id=product.id).update(name=spec["name"], roles=spec["roles"])


def level_of(product: Product, role: str | None) -> int | None:
    return next((r["nivel"] for r in product.roles if r["papel"] == role), None)


@dataclass
class Decision:
    allowed: bool
    reason: str
    role: str | None = None
    level: int | None = None
    support: str | None = None  # the support session (sup_...) a ``suporte`` decision is made for


def top_role(product: Product) -> tuple[str | None, int | None]:
    """The product's highest role: what a support seat reads with (the owner's reach)."""
    best = max(product.roles, key=lambda r: r["nivel"], default=None)
    return (best["papel"], best["nivel"]) if best else (None, None)


async def decide(*, sub: str, tenant: str, product_key: str, role: str | None,
                 session_id: str | None = None) -> Decision:
    product = await Product.get_or_none(key=product_key)
    seat = await live_seat_of(session_id, sub) if session_id and product is not None else None
    if product is None:
        decision = Decision(False, "produto_desconhecido")
    elif seat is not None:
        subscription = await TenantProduct.get_or_none(tenant=tenant, product=product)
        if seat.tenant != tenant:
            decision = Decision(False, "suporte_outra_conta", support=seat.support_id)
        elif subscription is None or subscription.status != "ativo":
            decision = Decision(False, "produto_nao_assinado", support=seat.support_id)
        else:
            decision = Decision(True, "suporte", *top_role(product), support=seat.support_id)
    else:
        if role is not None and level_of(product, role) is None:
            raise errors.UndeclaredRole(f"The product {product_key!r} does not declare the role {role!r}.",
                                        details={"papel": "not declared by the product"})
        subscription = await TenantProduct.get_or_none(tenant=tenant, product=product)
        grant = await AccessGrant.filter(tenant=tenant, product=product, user__public_id=sub).first()
        if subscription is None or subscription.status != "ativo":
            decision = Decision(False, "produto_nao_assinado")
        elif grant is None:
            decision = Decision(False, "sem_acesso")
        else:
            held = level_of(product, grant.role)
            decision = Decision(True, "permitido", grant.role, held)
            if role is not None and (held or 0) < (level_of(product, role) or 0):
                decision = Decision(False, "papel_insuficiente", grant.role, held)
    await AuthzDecision.create(tenant=tenant, subject=sub[:40], product=product_key[:64], allowed=decision.allowed,
                               reason=decision.reason, role=decision.role, level=decision.level)
    return decision


async def user_by_public_id(user_id: str) -> User:
    user = await User.get_or_none(public_id=user_id)
    if user is None:
        raise errors.NotFound("No such user.")
    return user


async def product_by_key(key: str) -> Product:
    product = await Product.get_or_none(key=key)
    if product is None:
        raise errors.NotFound(f"No product {key!r} in the catalog.")
    return product


async def catalog() -> list[Product]:
    return await Product.all().order_by("key")


def require_declared(product: Product, role: str) -> None:
    if level_of(product, role) is None:
        declared = ", ".join(r["papel"] for r in product.roles)
        raise errors.UndeclaredRole(f"The product {product.key!r} does not declare the role {role!r}; "
                                    f"declared: {declared}.", details={"papel": "not declared by the product"})


def check_tenant(tenant_id: str) -> str:
    if not tenant_id or len(tenant_id) > 64:
        raise errors.NotFound("No such tenant.")
    return tenant_id


async def grants_of(tenant: str, sub: str) -> tuple[list[AccessGrant], dict[int, str]]:
    """The grants of user ``sub`` in ``tenant`` (with their products) and the tenant's
    subscription status per product id."""
    grants = await AccessGrant.filter(tenant=tenant, user__public_id=sub).prefetch_related("product")
    subscriptions = {s.product_id: s.status for s in await TenantProduct.filter(tenant=tenant)}
    return grants, subscriptions


async def list_grants(tenant: str, *, product_key: str | None, user_id: str | None) -> list[AccessGrant]:
    query = AccessGrant.filter(tenant=tenant)
    if product_key:
        query = query.filter(product__key=product_key)
    if user_id:
        query = query.filter(user__public_id=user_id)
    return await query.order_by("id").prefetch_related("user", "product")


async def grant(tenant: str, user_id: str, product_key: str, role: str) -> tuple[AccessGrant, bool]:
    """Gives (or changes) the role of a user on a product in a tenant; whether it is new."""
    product = await product_by_key(product_key)
    require_declared(product, role)
    user = await user_by_public_id(user_id)
    existing = await AccessGrant.get_or_none(tenant=tenant, user=user, product=product)
    created = False
    if existing is None:
        try:
            existing = await AccessGrant.create(tenant=tenant, user=user, product=product, role=role)
            created = True
        except IntegrityError:
            existing = await AccessGrant.get(tenant=tenant, user=user, product=product)
    if existing.role != role:
        existing.role = role
        await existing.save(update_fields=["role", "updated_at"])
    existing.user, existing.product = user, product
    return existing, created


async def revoke_grant(tenant: str, user_id: str, product_key: str) -> None:
    await AccessGrant.filter(tenant=tenant, user__public_id=user_id, product__key=product_key).delete()


async def recent_decisions(tenant: str, *, denied_only: bool, limit: int) -> list[AuthzDecision]:
    query = AuthzDecision.filter(tenant=tenant)
    if denied_only:
        query = query.filter(allowed=False)
    return await query.order_by("-id").limit(limit)


async def subscriptions_of(tenant: str) -> list[TenantProduct]:
    return await TenantProduct.filter(tenant=tenant).prefetch_related("product").order_by("id")


async def subscribe(tenant: str, product_key: str, status: str) -> TenantProduct:
    """Sets the tenant's subscription to a product (``ativo``, ``suspenso`` or ``cancelado``)."""
    if status not in SUBSCRIPTION_STATES:
        raise errors.InvalidInput(f"Field 'status': one of {', '.join(SUBSCRIPTION_STATES)}.",
                                  details={"status": "invalid"})
    product = await product_by_key(product_key)
    row = await TenantProduct.get_or_none(tenant=tenant, product=product)
    if row is None:
        try:
            row = await TenantProduct.create(tenant=tenant, product=product, status=status)
        except IntegrityError:
            row = await TenantProduct.get(tenant=tenant, product=product)
    if row.status != status:
        row.status = status
        await row.save(update_fields=["status", "updated_at"])
    row.product = product
    return row
