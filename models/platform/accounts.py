"""Tenants and API keys: the operations the CLI (and later the dashboard) performs."""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime, timezone

from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from models.platform.api_key import ApiKey, KeyKind, generate_key, hash_key
from models.platform.scopes import READ_ONLY_SCOPES, ScopeError, validate_scopes
from models.platform.tenant import Tenant, TenantStatus


class AccountError(Exception):
    """An account operation refused; the message says why."""


class NotFoundError(AccountError):
    pass


class ConflictError(AccountError):
    pass


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
    return slug[:100] or "tenant"


async def create_tenant(name: str, slug: str | None = None, parent_id: str | None = None,
                        monthly_quota: int | None = None, plan: str = "") -> Tenant:
    name = name.strip()
    if not name:
        raise AccountError("name must not be empty")
    slug = slugify(slug) if slug else slugify(name)
    async with in_transaction("platform") as conn:
        parent = None
        if parent_id:
            parent = await Tenant.get_or_none(public_id=parent_id).using_db(conn)
            if parent is None:
                raise NotFoundError(f"no tenant {parent_id}")
        effective = monthly_quota if monthly_quota is not None else (parent.effective_quota if parent else None)
        try:
            return await Tenant.create(name=name, slug=slug, parent=parent, monthly_quota=monthly_quota,
                                       effective_quota=effective, plan=plan, using_db=conn)
        except IntegrityError:
            raise ConflictError(f"slug {slug!r} is already in use") from None


async def set_tenant_status(tenant_id: str, status: TenantStatus) -> Tenant:
    updated = await Tenant.filter(public_id=tenant_id).update(status=status.value)
    if not updated:
        raise NotFoundError(f"no tenant {tenant_id}")
    return await Tenant.get(public_id=tenant_id)


async def create_key(tenant_id: str, name: str, scopes: list[str], kind: KeyKind = KeyKind.LIVE) -> tuple[ApiKey, str]:
    """A new key for the tenant; returns the row and the plaintext (shown once, never stored)."""
    scopes = validate_scopes(scopes)
    if kind is KeyKind.PUBLISHABLE and not set(scopes) <= READ_ONLY_SCOPES:
        raise ScopeError(f"a publishable key holds only read scopes ({', '.join(sorted(READ_ONLY_SCOPES))})")
    tenant = await Tenant.get_or_none(public_id=tenant_id)
    if tenant is None:
        raise NotFoundError(f"no tenant {tenant_id}")
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
