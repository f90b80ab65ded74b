"""Authorization decisions, grants, the catalog and subscriptions as the identity API writes them
(in Portuguese, as the contract names them)."""

from __future__ import annotations

from app.identity.authz.service import Decision, level_of
from models.identity import AccessGrant, AuthzDecision, Product, TenantProduct


def decision_json(decision: Decision) -> dict:
    body = {"permitido": decision.allowed, "motivo": decision.reason, "papel": decision.role,
            "nivel": decision.level}
    if decision.support is not None:  # a seated session's answer only: the contract's four fields otherwise
        body["suporte"] = decision.support
    return body


def access_json(grant: AccessGrant, subscriptions: dict[int, str]) -> dict:
    """A grant of the caller's own (``GET /v1/authz/eu``), with the tenant's subscription status."""
    return {"produto": grant.product.key, "papel": grant.role, "nivel": level_of(grant.product, grant.role),
            "assinatura": subscriptions.get(grant.product_id)}


def grant_json(grant: AccessGrant) -> dict:
    return {"user_id": grant.user.public_id, "produto": grant.product.key, "papel": grant.role,
            "nivel": level_of(grant.product, grant.role), "atualizado_em": grant.updated_at.isoformat()}


def product_json(product: Product) -> dict:
    return {"produto": product.key, "nome": product.name, "papeis": product.roles}


def recorded_decision_json(row: AuthzDecision) -> dict:
    return {"sub": row.subject, "produto": row.product, "permitido": row.allowed, "motivo": row.reason,
            "papel": row.role, "nivel": row.level, "em": row.created_at.isoformat()}


def subscription_json(row: TenantProduct) -> dict:
    return {"produto": row.product.key, "status": row.status, "atualizado_em": row.updated_at.isoformat()}
