"""Web push set-up of an account: the snippet for the site's pages, the service worker to serve
from the site's origin, the manifest and the public key, each with a copy button; the web devices
registered so far (paged). ``GET /api/push/site-config`` (the platform makes the account's key
pair on the first call), ``GET /api/push/devices`` under ``X-Service-Tenant``."""

from __future__ import annotations

import json

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_push")
PAGE_SIZE = 50


def _endpoint(token: str) -> str:
    """Where a web device's pushes go (the push service's host), from its stored subscription."""
    try:
        endpoint = json.loads(token).get("endpoint") or ""
    except (ValueError, AttributeError):
        return token[:60]
    return endpoint.split("/")[2] if endpoint.count("/") >= 2 else endpoint[:60]


@bp.get("/a/<account_id:id>/push", ctx_query=("cursor",))
async def push(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    config = await upstream.call(request, "GET", "/api/push/site-config", tenant=account_id)
    if config.status == 404:
        raise gate.PageNotFound()
    cursor = request.args.get("cursor") or "0"
    cursor = cursor if cursor.isdigit() and len(cursor) < 9 else "0"
    devices = await upstream.call(request, "GET", "/api/push/devices", tenant=account_id,
                                  params={"cursor": cursor, "limit": str(PAGE_SIZE)})
    rows = [{**row, "Service": _endpoint(row.get("Token") or "")} for row in devices.get("Devices", [])] \
        if devices.ok else None
    more = devices.get("NextCursor") if devices.ok and devices.get("HasMore") else None
    return render(request, "push/push.html", title="Web push", config=config.body if config.ok else None,
                  devices=rows, more=more, paged=cursor != "0")
