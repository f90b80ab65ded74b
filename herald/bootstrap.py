"""What ``herald up`` does once on a new ./var/: a demo tenant and a test key to try Herald with."""

from __future__ import annotations

from tortoise import Tortoise

from herald.settings import Settings
from models import tortoise_config
from models.platform.accounts import create_key, create_tenant
from models.platform.api_key import KeyKind
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
