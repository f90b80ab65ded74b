"""POST /callbacks/twilio/{tenant id}: Twilio's SMS status callbacks, turned into timeline events.

Twilio signs each callback (``X-Twilio-Signature``: base64 HMAC-SHA1, keyed with the account's
auth token, over the full URL followed by every POST parameter name and value sorted by name).
The URL is rebuilt from PLATFORM_URL, the address Twilio was given. The auth token is the
tenant's own Twilio configuration's, else the platform default's (SMS_PROVIDER=twilio). A missing
or wrong signature answers 403 and changes nothing; an unknown MessageSid answers 204 too (Twilio
must not retry what will never match).

Not under /v1: Twilio holds no API key; the signature is the credential.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from models.platform.provider_config import ProviderConfig
from models.platform.receipts import record_receipt
from models.platform.tenant import Tenant

bp = Blueprint("twilio_callbacks", url_prefix="/callbacks/twilio")

FINAL = {"delivered": "delivered", "undelivered": "failed", "failed": "failed"}


def twilio_signature(auth_token: str, url: str, params: dict[str, str]) -> str:
    payload = url + "".join(name + params[name] for name in sorted(params))
    return base64.b64encode(hmac.new(auth_token.encode(), payload.encode(), hashlib.sha1).digest()).decode()


async def _auth_token(request: Request, tenant_pk: int) -> str | None:
    row = await ProviderConfig.get_or_none(tenant_id=tenant_pk, channel="sms", key="twilio")
    if row is not None:
        return row.resolved().config.get("auth_token")
    settings = request.app.ctx.settings
    if settings.providers.get("sms") == "twilio":
        return settings.provider_configs.get("sms", {}).get("auth_token")
    return None


@bp.post("/<tenant_id:str>")
async def status_callback(request: Request, tenant_id: str) -> HTTPResponse:
    tenant = await Tenant.get_or_none(public_id=tenant_id)
    token = await _auth_token(request, tenant.id) if tenant is not None else None
    params = {name: values[0] for name, values in request.form.items()} if request.form else {}
    url = request.app.ctx.settings.url_of("platform") + request.path
    if request.query_string:
        url += "?" + request.query_string
    given = request.headers.get("x-twilio-signature", "")
    if not token or not hmac.compare_digest(given.encode(), twilio_signature(token, url, params).encode()):
        raise errors.PermissionDenied("The callback signature is not valid.")
    sid, status = params.get("MessageSid") or params.get("SmsSid"), (params.get("MessageStatus") or "").lower()
    if sid and status:
        detail = {name: params[name] for name in ("ErrorCode", "ErrorMessage") if params.get(name)}
        await record_receipt(tenant.id, "sms", sid, status, FINAL.get(status), detail)
    return HTTPResponse(status=204)
