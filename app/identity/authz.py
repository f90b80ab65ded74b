"""Authorization decisions: may user X use product P in tenant T (at least with role R)?

The product catalog is declared here, in code (:data:`CATALOG`), and mirrored into the
``products`` table at start. A decision reads the database every time (no cache here; tools
may cache a decision for at most 60 seconds) and is recorded in ``authz_decisions``. A database
failure is 503, never a deny.

Reasons (``motivo``): ``permitido``, ``produto_desconhecido``, ``produto_nao_assinado``,
``sem_acesso``, ``papel_insuficiente``.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from dataclasses import dataclass

import asyncpg
from tortoise.exceptions import BaseORMException, IntegrityError

from app.identity import errors
from models.identity import AccessGrant, AuthzDecision, Product, TenantProduct, User

log = logging.getLogger("herald.identity.authz")

_ROLES = [{"papel": "leitor", "nivel": 10}, {"papel": "editor", "nivel": 20}, {"papel": "admin", "nivel": 30}]
CATALOG: dict[str, dict] = {
    "mensageria": {"name": "Herald messaging (e-mail, SMS, push, WhatsApp)", "roles": _ROLES},
    "crm": {"name": "Herald CRM", "roles": _ROLES},
    "paginas": {"name": "Herald pages", "roles": _ROLES + [{"papel": "publicador", "nivel": 25}]},
    "analytics": {"name": "Herald analytics", "roles": [{"papel": "leitor", "nivel": 10},
                                                        {"papel": "admin", "nivel": 30}]},
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
    permitido: bool
    motivo: str
    papel: str | None = None
    nivel: int | None = None

    def json(self) -> dict:
        return {"permitido": self.permitido, "motivo": self.motivo, "papel": self.papel, "nivel": self.nivel}


async def decide(*, sub: str, tenant: str, produto: str, papel: str | None) -> Decision:
    product = await Product.get_or_none(key=produto)
    if product is None:
        decision = Decision(False, "produto_desconhecido")
    else:
        if papel is not None and level_of(product, papel) is None:
            raise errors.UndeclaredRole(f"The product {produto!r} does not declare the role {papel!r}.",
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
            if papel is not None and (held or 0) < (level_of(product, papel) or 0):
                decision = Decision(False, "papel_insuficiente", grant.role, held)
    await AuthzDecision.create(tenant=tenant, subject=sub[:40], product=produto[:64], allowed=decision.permitido,
                               reason=decision.motivo, role=decision.papel, level=decision.nivel)
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
