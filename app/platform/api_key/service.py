"""API keys: which scopes a new key may hold, making one (its plaintext shown once) and revoking one.

Operator services (herald/admin.py, ``herald up``, the tests): no principal. Refusals are
:class:`app.platform.errors.AccountError` and its subclasses (:class:`ScopeError` for scopes).
"""

from __future__ import annotations

from datetime import datetime, timezone

from app.platform.errors import NotFoundError, ResourceLimit, ScopeError
from app.platform.tenant.service import tenant_by_id
from models.platform.api_key import ApiKey, KeyKind, generate_key, hash_key
from models.platform.scopes import PUBLISHABLE_SCOPES, SCOPES


def validate_scopes(scopes: list[str] | tuple[str, ...], *, publishable: bool = False) -> list[str]:
    """The scopes of a new key, cleaned and in catalog order; a publishable key takes only
    :data:`PUBLISHABLE_SCOPES`, and its refusal lists those."""
    valid = PUBLISHABLE_SCOPES if publishable else tuple(SCOPES)
    cleaned = [scope.strip() for scope in scopes if scope.strip()]
    if not cleaned:
        raise ScopeError("at least one scope is required", valid)
    unknown = [scope for scope in cleaned if scope not in SCOPES]
    if unknown:
        raise ScopeError(f"unknown scope(s): {', '.join(unknown)}", valid)
    refused = [scope for scope in cleaned if scope not in valid]
    if refused:
        raise ScopeError(f"a publishable key cannot hold {', '.join(refused)}", valid)
    return sorted(set(cleaned), key=list(SCOPES).index)


async def create_key(tenant_id: str, name: str, scopes: list[str], kind: KeyKind = KeyKind.LIVE) -> tuple[ApiKey, str]:
    """A new key for the tenant; returns the row and the plaintext (shown once, never stored)."""
    scopes = validate_scopes(scopes, publishable=kind is KeyKind.PUBLISHABLE)
    tenant = await tenant_by_id(tenant_id)
    plaintext = generate_key(kind)
    key = await ApiKey.create(tenant=tenant, name=name.strip() or "unnamed", kind=kind.value,
                              hint=plaintext[: len(kind.value) + 4], key_hash=hash_key(plaintext),
                              scopes=scopes, mode=kind.mode)
    return key, plaintext


async def revoke_key(key_id: str) -> ApiKey:
    key = await ApiKey.get_or_none(public_id=key_id)
    if key is None:
        raise NotFoundError(f"no API key {key_id}")
    if key.revoked_at is None:
        key.revoked_at = datetime.now(timezone.utc)
        await key.save(update_fields=["revoked_at"])
    return key


# --- the dashboard's keys of one account (app/platform/api_key/api.py) ----------------------------

KEYS_PER_TENANT = 100  # active (unrevoked) keys; docs/accounts.md


def tenant_keys(conn, tenant_pk: int):
    """The account's keys (revoked ones included, marked), for a keyset page."""
    return ApiKey.filter(tenant_id=tenant_pk).using_db(conn)


async def create_tenant_key(conn, tenant_pk: int, tenant_id: str, name: str, scopes: list[str],
                            kind: KeyKind) -> tuple[ApiKey, str]:
    """:func:`create_key` within the per-account cap; the account row is locked, so two creates at
    the cap cannot both pass the count."""
    validate_scopes(scopes, publishable=kind is KeyKind.PUBLISHABLE)
    await conn.execute_query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [tenant_pk])
    if await ApiKey.filter(tenant_id=tenant_pk, revoked_at=None).using_db(conn).count() >= KEYS_PER_TENANT:
        raise ResourceLimit("API keys", KEYS_PER_TENANT)
    return await create_key(tenant_id, name, scopes, kind)


async def revoke_tenant_key(conn, tenant_pk: int, key_id: str) -> ApiKey:
    """Revoke one of the account's keys; another account's key is 404 like a missing one."""
    key = await ApiKey.filter(public_id=key_id, tenant_id=tenant_pk).using_db(conn).first()
    if key is None:
        raise NotFoundError("No such API key.")
    return await revoke_key(key.public_id)
