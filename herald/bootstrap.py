"""What ``herald up`` does once on a new ./var/: a demo tenant and a test key to try Herald with;
and, while IDENTITY_MAIL_KEY is not configured, the key the identity server's e-mail goes out with."""

from __future__ import annotations

import os

from tortoise import Tortoise

from app.platform.api_key.service import create_key
from app.platform.tenant.service import create_tenant
from herald.settings import Settings
from models import tortoise_config
from models.platform.api_key import ApiKey, KeyKind, hash_key
from models.platform.domain import SANDBOX_DOMAIN
from models.platform.scopes import DEMO_SCOPES
from models.platform.tenant import Tenant

MARKER = ".bootstrapped"


async def first_start(settings: Settings) -> list[str]:
    """Lines to show the operator (empty after the first start)."""
    marker = settings.var_dir / MARKER
    if marker.exists():
        return []
    await Tortoise.init(config=tortoise_config(settings, ["platform"], pool_max=2), _enable_global_fallback=True)
    try:
        tenant = await Tenant.get_or_none(slug="demo") or await create_tenant("Demo", "demo")
        key, plaintext = await create_key(tenant.public_id, "demo (created by herald up)", list(DEMO_SCOPES),
                                          KeyKind.TEST)
    finally:
        await Tortoise.close_connections()
    marker.write_text(f"{tenant.public_id}\n")
    return [
        f"Demo tenant {tenant.public_id} with a test-mode key (shown once; test keys deliver to the sinks):",
        f"  {plaintext}",
        f"  scopes: {', '.join(key.scopes)}",
    ]


IDENTITY_MAIL_KEY_FILE = "identity_mail_key"
SYSTEM_TENANT_SLUG = "herald-system"
IDENTITY_MAIL_FROM = f"accounts@{SANDBOX_DOMAIN}"


async def identity_mail_key(settings: Settings) -> str:
    """The key identity e-mail is sent with when IDENTITY_MAIL_KEY is not configured.

    A test-mode key with ``email:send`` of the "Herald" system tenant (test keys send from the
    sandbox domain and deliver to the sinks), kept in ./var/identity_mail_key (mode 0600). Made on
    the first start that needs it, and again when the database no longer knows the stored one.
    """
    path = settings.var_dir / IDENTITY_MAIL_KEY_FILE
    await Tortoise.init(config=tortoise_config(settings, ["platform"], pool_max=2), _enable_global_fallback=True)
    try:
        if path.exists():
            stored = path.read_text().strip()
            if await ApiKey.filter(key_hash=hash_key(stored), revoked_at=None).exists():
                return stored
        tenant = await Tenant.get_or_none(slug=SYSTEM_TENANT_SLUG) or await create_tenant("Herald", SYSTEM_TENANT_SLUG)
        if not tenant.purge_content:  # its e-mails carry sign-in codes and reset links
            tenant.purge_content = True
            await tenant.save(update_fields=["purge_content"])
        _, plaintext = await create_key(tenant.public_id, "identity e-mail (created by herald up)", ["email:send"],
                                        KeyKind.TEST)
    finally:
        await Tortoise.close_connections()
    path.touch(mode=0o600)
    os.chmod(path, 0o600)
    path.write_text(plaintext + "\n")
    return plaintext
