"""POST and GET /v1/push/devices: the account's push devices.

POST upserts on (tenant, token) and always answers 200 ``{Device}``, whether it created the
device or found it (what a token may be: app/platform/device/schemas.py).
GET pages with ``cursor`` (an offset, integer >= 0) and ``limit`` (1..200); the tenant always
comes from the key: any other query parameter (a tenant id among them) is refused with 422.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.http.openapi import answers
from app.platform import db
from app.platform.gate.v1 import principal_of
from app.platform.device import service
from app.platform.device.schemas import DeviceRegistration, check_web_token
from app.platform.device.views import DEVICE, DEVICES, device_view
from models.platform.device import DevicePlatform

bp = Blueprint("v1_devices", url_prefix="/v1/push/devices")

DEFAULT_LIMIT = 50
MAX_LIMIT = 200


@bp.post("", ctx_scope="push:devices", ctx_body=DeviceRegistration, ctx_responses=answers({200: DEVICE}))
async def register_device(request: Request) -> HTTPResponse:
    """Register (or refresh) a device's push token for the account."""
    principal = principal_of(request)
    body = parse_body(request, DeviceRegistration, max_bytes=64 * 1024)
    platform = DevicePlatform(body.platform)
    if platform is DevicePlatform.WEB:
        check_web_token(body.token)
    device = await service.register_device(db.connection(), principal, body.token, platform)
    return reply(request, {"Device": device_view(device)})


@bp.get("", ctx_scope="push:devices", ctx_query=("cursor", "limit"), ctx_responses=answers({200: DEVICES}))
async def list_devices(request: Request) -> HTTPResponse:
    """The account's registered push devices, a page at a time."""
    page = OffsetPage.of(request, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    found = await service.list_devices(db.connection(), principal_of(request), page)
    return reply(request, {"Devices": [device_view(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})
