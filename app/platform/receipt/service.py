"""Provider delivery receipts: Twilio's SMS status callbacks, checked and turned into timeline events.

Twilio signs each callback (``X-Twilio-Signature``: base64 HMAC-SHA1, keyed with the account's
auth token, over the full URL followed by every POST parameter name and value sorted by name).
The auth token is the tenant's own Twilio configuration's, else the platform default's
(SMS_PROVIDER=twilio). A final status moves the message (models/platform/receipts.py).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from tortoise.backends.base.client import BaseDBAsyncClient

from kit.settings import Settings
from models.platform.provider_config import ProviderConfig
from models.platform.receipts import record_receipt
from models.platform.tenant import Tenant

FINAL = {"delivered": "delivered", "undelivered": "failed", "failed": "failed"}


def twilio_signature(auth_token: str, url: str, params: dict[str, str]) -> str:
    payload = url + "".join(name + params[name] for name in sorted(params))
    return base64.b64encode(hmac.new(auth_token.encode(), payload.encode(), hashlib.sha1).digest()).decode()


def signature_valid(auth_token: str | None, given: str, url: str, params: dict[str, str]) -> bool:
    return bool(auth_token) and hmac.compare_digest(given.encode(), twilio_signature(auth_token, url, params).encode())


async def twilio_account(conn: BaseDBAsyncClient, tenant_id: str,
                         settings: Settings) -> tuple[Tenant | None, str | None]:
    """The tenant a callback names, and the auth token its callbacks are signed with (None: none)."""
    tenant = await Tenant.get_or_none(public_id=tenant_id, using_db=conn)
    if tenant is None:
        return None, None
    row = await ProviderConfig.get_or_none(tenant_id=tenant.id, channel="sms", key="twilio", using_db=conn)
    if row is not None:
        return tenant, row.resolved().config.get("auth_token")
    if settings.providers.get("sms") == "twilio":
        return tenant, settings.provider_configs.get("sms", {}).get("auth_token")
    return tenant, None


async def record_twilio_status(conn: BaseDBAsyncClient, tenant: Tenant, params: dict[str, str]) -> None:
    """Put a status callback on its message's timeline; an unknown MessageSid changes nothing."""
    sid, status = params.get("MessageSid") or params.get("SmsSid"), (params.get("MessageStatus") or "").lower()
    if sid and status:
        detail = {name: params[name] for name in ("ErrorCode", "ErrorMessage") if params.get(name)}
        await record_receipt(conn, tenant.id, "sms", sid, status, FINAL.get(status), detail)
