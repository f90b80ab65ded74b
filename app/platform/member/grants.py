"""The identity server's side of an account: product subscriptions and access grants.

The CRM, pages and runtime systems ask the identity server for authorization decisions
(docs/identity.md, "Authorization"); a decision allows a person only when the tenant subscribes
to the product and the person holds a grant. So the platform, which owns memberships, keeps the
identity server's grants in step through its service routes:

- a new account is subscribed (``ativo``) to every product of the catalog (``/v1/authz/produtos``);
- a membership grants every product: ``owner`` and ``admin`` get ``admin``, ``member`` gets
  ``leitor``; removing a membership revokes the grants.

Access is inherited down the tree, so the grants are too: after a change of who reaches an account
(a membership added, changed or removed, an invitation accepted, a sub-account made, a move),
:func:`sync_subtree` reconciles the grants of the account and everything below it (at most
:data:`SYNC_TENANTS` accounts) with the people who reach each one: missing or different grants
are written, grants of people who no longer reach it are revoked. The grant of the direct change
is written inside its transaction (a refused grant rolls the change back); the reconciliation of
the subtree runs after the commit and a failure there is logged (the next change of that subtree
repairs it). Every call is idempotent.
"""

from __future__ import annotations

import asyncio
import logging

from app.http import errors
from app.http.services import ServiceClient
from app.platform.member import service as members
from models.platform.member import Role

log = logging.getLogger("herald.dashboard")

PRODUCT_ROLE = {Role.OWNER: "admin", Role.ADMIN: "admin", Role.MEMBER: "leitor"}


async def _ok(answer, what: str) -> dict:
    if not answer.ok:
        raise errors.UpstreamError(f"The identity server refused {what}.")
    return answer.body if isinstance(answer.body, dict) else {}


async def products(identity: ServiceClient) -> list[str]:
    body = await _ok(await identity.get("/v1/authz/produtos"), "the product catalog")
    return [item["produto"] for item in body.get("produtos", []) if isinstance(item, dict) and "produto" in item]


async def subscribe(identity: ServiceClient, tenant_id: str) -> list[str]:
    catalog = await products(identity)
    for product_key in catalog:
        await _ok(await identity.post(f"/v1/tenants/{tenant_id}/produtos", json={"produto": product_key, "status": "ativo"}),
                  "a subscription")
    return catalog


async def grant(identity: ServiceClient, tenant_id: str, user_id: str, role: Role,
                catalog: list[str] | None = None) -> None:
    for product_key in catalog if catalog is not None else await products(identity):
        answer = await identity.post(f"/v1/tenants/{tenant_id}/acessos",
                                     json={"user_id": user_id, "produto": product_key, "papel": PRODUCT_ROLE[role]})
        if answer.status == 404:
            raise errors.NotFound("No such user.")
        await _ok(answer, "a grant")


async def revoke(identity: ServiceClient, tenant_id: str, user_id: str) -> None:
    for product_key in await products(identity):
        await _ok(await identity.request("DELETE", f"/v1/tenants/{tenant_id}/acessos/{user_id}/{product_key}"),
                  "a revocation")


async def provision(identity: ServiceClient, tenant_id: str, owner_id: str) -> None:
    """A new account: subscribed to the catalog, its owner granted ``admin`` on every product."""
    catalog = await subscribe(identity, tenant_id)
    await grant(identity, tenant_id, owner_id, Role.OWNER, catalog)


async def person(identity: ServiceClient, user_id: str) -> dict:
    """``{"email", "name", "email_verified"}`` of one person (service credential): 404 when the
    identity server knows no such user, 502 when it does not answer usefully."""
    answer = await identity.get(f"/v1/users/{user_id}")
    if answer.status == 404:
        raise errors.NotFound("No such user.")
    user = (await _ok(answer, "the user lookup")).get("user")
    if not isinstance(user, dict) or not isinstance(user.get("email"), str):
        log.error("identity answered GET /v1/users/%s without an e-mail", user_id)
        raise errors.UpstreamError()
    return {"email": user["email"], "name": user.get("name"), "email_verified": user.get("email_verified") is True}


async def people(identity: ServiceClient, user_ids: list[str]) -> dict[str, dict]:
    """``{user_id: {"email", "name"}}`` for the people the identity server knows (service
    credential, a few at a time); a failure leaves the rest out rather than failing the listing."""
    found: dict[str, dict] = {}
    gate = asyncio.Semaphore(8)

    async def one(user_id: str) -> None:
        async with gate:
            try:
                answer = await identity.get(f"/v1/users/{user_id}")
            except errors.HttpError:
                return
        user = answer.body.get("user") if answer.ok and isinstance(answer.body, dict) else None
        if isinstance(user, dict):
            found[user_id] = {"email": user.get("email"), "name": user.get("name")}

    await asyncio.gather(*(one(user_id) for user_id in user_ids))
    return found


SYNC_TENANTS = 200


async def sync_subtree(identity: ServiceClient, conn, tenant_pk: int) -> None:
    """Reconcile the identity server's grants of the tenant and its subtree with who reaches them."""
    catalog = await products(identity)
    for pk, tenant_id in await members.subtree_ids(conn, tenant_pk, SYNC_TENANTS):
        wanted = {user: PRODUCT_ROLE[role] for user, role in (await members.people_of(conn, pk)).items()}
        listed = await _ok(await identity.get(f"/v1/tenants/{tenant_id}/acessos"), "the grants")
        held: dict[tuple[str, str], str] = {(row["user_id"], row["produto"]): row["papel"]
                                            for row in listed.get("acessos", []) if isinstance(row, dict)}
        for user_id, role in wanted.items():
            for product_key in catalog:
                if held.get((user_id, product_key)) != role:
                    await _ok(await identity.post(f"/v1/tenants/{tenant_id}/acessos",
                                                  json={"user_id": user_id, "produto": product_key, "papel": role}),
                              "a grant")
        for user_id, product_key in held:
            if user_id not in wanted:
                await _ok(await identity.request("DELETE", f"/v1/tenants/{tenant_id}/acessos/{user_id}/{product_key}"),
                          "a revocation")


async def sync_after(identity: ServiceClient, conn, tenant_pk: int) -> None:
    """:func:`sync_subtree` after a committed change; a failure is logged, not answered."""
    try:
        await sync_subtree(identity, conn, tenant_pk)
    except Exception as failure:  # noqa: BLE001 - the change stands; the next one repairs the grants
        log.error("grants of the subtree of tenant %s not reconciled: %r", tenant_pk, failure)
