"""POST and GET /v1/push/devices: the account's push devices.

POST upserts on (tenant, token) and always answers 200 ``{Device}``, whether it created the
device or found it. ``UserRef`` and ``Metadata`` are accepted and not stored. A web device's
token is its PushSubscription as JSON (``endpoint`` and ``keys.p256dh``, ``keys.auth``).
GET pages with ``cursor`` (an offset, integer >= 0) and ``limit`` (1..200); the tenant always
comes from the key: any other query parameter (a tenant id among them) is refused with 422.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request
from tortoise import connections

from app.http import errors
from app.http.bodies import Body, parse_body
from app.http.query import int_param
from app.http.responses import iso, reply
from app.platform.gate import principal_of
from models.platform.device import Device, DevicePlatform, upsert_device

bp = Blueprint("v1_devices", url_prefix="/v1/push/devices")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


class DeviceRegistration(Body):
    token: Annotated[str, Field(min_length=1, max_length=2048)]
    platform: Literal["ios", "android", "web"]
    user_ref: Annotated[str, Field(max_length=256)] | None = None
    metadata: dict[str, Annotated[str, Field(max_length=1024)]] | None = None


def device_json(device: Device) -> dict[str, Any]:
    return {"DeviceId": device.public_id, "Token": device.token, "Platform": device.platform,
            "CreatedAt": iso(device.created_at), "UpdatedAt": iso(device.updated_at)}


def _check_web_token(token: str) -> None:
    try:
        subscription = json.loads(token)
        ok = isinstance(subscription, dict) and isinstance(subscription.get("endpoint"), str) and \
            isinstance(subscription.get("keys"), dict) and {"p256dh", "auth"} <= set(subscription["keys"])
    except ValueError:
        ok = False
    if not ok:
        raise errors.ValidationError("A web device's Token is its PushSubscription as JSON "
                                     "(endpoint, keys.p256dh, keys.auth).",
                                     details={"Token": "must be a PushSubscription JSON for platform web"})


@bp.post("", ctx_scope="push:devices")
async def register_device(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    body = parse_body(request, DeviceRegistration, max_bytes=64 * 1024)
    platform = DevicePlatform(body.platform)
    if platform is DevicePlatform.WEB:
        _check_web_token(body.token)
    device = await upsert_device(connections.get("platform"), principal.tenant_pk, body.token, platform)
    return reply(request, {"Device": device_json(device)})


@bp.get("", ctx_scope="push:devices", ctx_query=("cursor", "limit"))
async def list_devices(request: Request) -> HTTPResponse:
    principal = principal_of(request)
    offset = int_param(request, "cursor", default=0, low=0)
    limit = int_param(request, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
    rows = await Device.filter(tenant_id=principal.tenant_pk).order_by("id").offset(offset).limit(limit + 1)
    has_more = len(rows) > limit
    return reply(request, {"Devices": [device_json(row) for row in rows[:limit]],
                           "NextCursor": offset + limit if has_more else None, "HasMore": has_more})
