"""Web push set-up: the account's VAPID key pair and the site's registration credential.

**One key pair per account, the one that sends.** The pair is the account's ``webpush`` provider
configuration (``provider_configs``: channel ``push``, key ``webpush``), the very row the Web Push
provider signs with (providers/webpush.py): the private key in its sealed secrets
(kit/sealing.py, purpose ``platform:provider-secrets``), ``vapid_subject`` in its settings. The
first ``GET /api/push/site-config`` makes it with ``INSERT ... ON CONFLICT DO NOTHING`` on the
unique (account, channel, key): two concurrent first calls both insert, one wins, both read the
winner, so the pair is made exactly once. Inside a read-only support session the call writes
nothing: an account without a pair answers ``PublicKey: null`` and a snippet that says web push
is not set up (views.py). An account that configured its own ``webpush`` keys
keeps them: the public key answered is derived from its private key.

**The site key** (``wpk_<account id>.<40 hex>``) is what the snippet sends with a subscription.
It is an HMAC (kit/sealing.py ``keyed_digest``, purpose ``platform:push-site-registration``)
of the account id and its VAPID public key: nothing is stored, it can only register web push
devices of that one account (POST /push/web/subscriptions), reads nothing, sends nothing, and a
new key pair (which makes every old subscription useless anyway) retires it. It is meant to be
public, in the page, like the pair's public key.
"""

from __future__ import annotations

import base64
import json
import re

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import OffsetPage, Page
from kit.sealing import PLATFORM, SealError
from models.platform.device import Device, DevicePlatform, upsert_device
from models.platform.provider_config import PROVIDER_SECRETS, ProviderConfig

REGISTRATION_PURPOSE = "platform:push-site-registration"
SITE_KEY = re.compile(r"^wpk_(acc_[0-9a-f]{1,40})\.([0-9a-f]{40})$")

_CLAIM = """
INSERT INTO provider_configs (tenant_id, channel, key, settings, secrets, created_at, updated_at)
VALUES ($1, 'push', 'webpush', $2::jsonb, $3, now(), now())
ON CONFLICT (tenant_id, channel, key) DO NOTHING
"""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def new_pair() -> tuple[str, str]:
    """(private key as base64url of the raw 32 bytes, public key as the browser's applicationServerKey)."""
    private = ec.generate_private_key(ec.SECP256R1())
    raw = private.private_numbers().private_value.to_bytes(32, "big")
    return _b64url(raw), public_of(_b64url(raw))


def public_of(private_key: str) -> str:
    """The uncompressed P-256 point of a private key given as raw base64url or PEM."""
    text = private_key.strip()
    if text.startswith("-----BEGIN"):
        private = serialization.load_pem_private_key(text.encode(), password=None)
    else:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        private = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    return _b64url(private.public_key().public_bytes(serialization.Encoding.X962,
                                                     serialization.PublicFormat.UncompressedPoint))


def subject_for(platform_url: str) -> str:
    """The VAPID ``sub`` claim: the platform's https URL, else a mailto at its host."""
    if platform_url.startswith("https://"):
        return platform_url
    host = re.sub(r"^[a-z]+://", "", platform_url).split("/")[0].split(":")[0] or "localhost"
    return f"mailto:push@{host if '.' in host else host + '.invalid'}"


async def site_public_key(conn: BaseDBAsyncClient, tenant_pk: int, platform_url: str, *, create: bool = True
                          ) -> str | None:
    """The account's VAPID public key, the pair made on the first call (exactly once). With
    ``create=False`` (a read-only support session) nothing is written: None when the account has
    no pair yet."""
    if create:
        private, _ = new_pair()
        await conn.execute_query(_CLAIM, [tenant_pk, json.dumps({"vapid_subject": subject_for(platform_url)}),
                                          PLATFORM.seal_json(PROVIDER_SECRETS, {"vapid_private_key": private})])
    row = await ProviderConfig.get_or_none(tenant_id=tenant_pk, channel="push", key="webpush", using_db=conn)
    if row is None:
        return None
    private_key = row.resolved().config.get("vapid_private_key")
    if not private_key:
        raise errors.Unprocessable("The account's webpush provider configuration has no vapid_private_key.",
                                   details={"webpush": "vapid_private_key missing"})
    try:
        return public_of(str(private_key))
    except (ValueError, TypeError):
        raise errors.Unprocessable("The account's webpush vapid_private_key cannot be read.",
                                   details={"webpush": "vapid_private_key unreadable"}) from None


def site_key(tenant_id: str, public_key: str) -> str:
    digest = PLATFORM.keyed_digest(REGISTRATION_PURPOSE, f"{tenant_id}:{public_key}")[:40]
    return f"wpk_{tenant_id}.{digest}"


async def tenant_of_site_key(conn: BaseDBAsyncClient, credential: str) -> int:
    """The account a site key registers devices for; 403 for anything else."""
    found = SITE_KEY.match(credential or "")
    refused = errors.PermissionDenied("The site key is not valid.")
    if not found:
        raise refused
    rows = await conn.execute_query_dict(
        "SELECT t.id, t.status, c.secrets FROM tenants t JOIN provider_configs c ON c.tenant_id = t.id "
        "AND c.channel = 'push' AND c.key = 'webpush' WHERE t.public_id = $1", [found.group(1)])
    if not rows or rows[0]["status"] != "active":
        raise refused
    try:
        private_key = PLATFORM.unseal_json(PROVIDER_SECRETS, rows[0]["secrets"]).get("vapid_private_key")
        public_key = public_of(str(private_key))
    except (ValueError, TypeError, SealError):
        raise refused from None
    # Under any key of SECRET_KEY: a site key pasted before a rotation works while its key is listed.
    if not PLATFORM.digest_matches(REGISTRATION_PURPOSE, f"{found.group(1)}:{public_key}", found.group(2), 40):
        raise refused
    return rows[0]["id"]


async def site_name(conn: BaseDBAsyncClient, tenant_pk: int) -> str:
    rows = await conn.execute_query_dict("SELECT name, public_id FROM tenants WHERE id = $1", [tenant_pk])
    return (rows[0]["name"] or rows[0]["public_id"]) if rows else ""


async def list_devices(conn: BaseDBAsyncClient, tenant_pk: int, page: OffsetPage) -> Page[Device]:
    return await page.fetch(Device.filter(tenant_id=tenant_pk).using_db(conn).order_by("id"))


async def register_subscription(conn: BaseDBAsyncClient, tenant_pk: int, subscription: str) -> Device:
    return await upsert_device(conn, tenant_pk, subscription, DevicePlatform.WEB)
