"""The live view: who is on the account's pages now, and each visit as it is recorded.

The page shows the runtime's last five minutes (``GET /v1/analytics/live``, again as the fragment
``live/now`` that ``static/js/analytics.js`` asks htmx to reload when a visit arrives and every 30 s,
so visitors age out) and the latest events (``/v1/analytics/events``). Visits arrive through
``/a/{id}/analytics/live/stream``: the console RELAYS the runtime's Server-Sent Events
(``GET /v1/analytics/live/stream``) through the one client between systems, as the person (their
session, so the stream counts toward the runtime's per-person cap of 3 and the account's cap; their
address forwarded with the service credential, so it counts toward the per-address cap as theirs).
The runtime refusing (429 past a cap, 401, 403...) is told to the browser as an ``event: refused``
with the reason, which the script shows and does not retry on its own. Closing the tab cancels this
handler (Sanic cancels it when the connection is lost), which leaves the upstream block and closes the
runtime's connection: the runtime then gives the place back."""

from __future__ import annotations

import json
import logging
import re

import httpx
from sanic import Blueprint, HTTPResponse, Request

from app.console import cookies, gate, upstream
from app.console.analytics import runtime
from app.console.templating import render
from app.http import errors
from app.http.services import services

log = logging.getLogger("herald.console.analytics")

bp = Blueprint("console_analytics_live")

STREAM = "/v1/analytics/live/stream"
STREAM_ID = re.compile(r"\d{1,20}-\d{1,20}")
RECENT = 20
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


async def _now(request: Request, account_id: str) -> dict | None:
    found = await runtime.read(request, account_id, "/v1/analytics/live")
    return found.get("Live") if found is not None else None


@bp.get("/a/<account_id:id>/analytics/live")
async def live(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    now = await _now(request, account_id)
    recent = await runtime.read(request, account_id, "/v1/analytics/events", params={"limite": str(RECENT)})
    return render(request, "analytics/live.html", title="Live", section="live", now=now,
                  events=recent.get("Events") if recent is not None else None, recent=RECENT)


@bp.get("/a/<account_id:id>/analytics/live/now")
async def live_now(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    return render(request, "analytics/live.html", fragment="analytics/_now.html", title="Live", section="live",
                  now=await _now(request, account_id), events=None, recent=RECENT)


def _refusal(status: int, body: object, retry_after: str | None) -> dict:
    """What the browser is told when the runtime will not open a stream, in words."""
    message = ""
    if isinstance(body, dict) and isinstance(body.get("Error"), dict):
        message = str(body["Error"].get("Message") or "")
    if status == 429:
        text = (message or "Too many live views are open; close one and retry.") + " Each tab with the live view open holds one."
    elif status == 401:
        text = "Your session has ended. Sign in again to follow the visits live."
    elif status == 403:
        text = "Your role in this account does not allow the live view."
    else:
        text = "The live view is unavailable just now. Try again in a minute."
    return {"Status": status, "Message": text, "RetryAfter": int(retry_after) if (retry_after or "").isdigit() else None}


async def _refuse(request: Request, refusal: dict) -> None:
    """One ``refused`` event, then the end (``retry`` long: a script-less client does not hammer)."""
    response = await request.respond(content_type="text/event-stream; charset=utf-8", headers=HEADERS)
    await response.send(f"retry: 60000\nevent: refused\ndata: {json.dumps(refusal)}\n\n")
    await response.eof()


@bp.get("/a/<account_id:id>/analytics/live/stream")
async def live_stream(request: Request, account_id: str) -> None:
    await gate.require_account(request, account_id)
    client = services(request.app).client("runtime")
    sent = {**upstream.client_headers(request, account_id), "Accept": "text/event-stream"}
    resume = request.headers.get("last-event-id", "").strip()
    if STREAM_ID.fullmatch(resume):
        sent["Last-Event-ID"] = resume
    # Three heartbeats of silence: the runtime or the way to it is gone (the browser reconnects).
    quiet = request.app.ctx.settings.runtime_sse_heartbeat_seconds * 3
    try:
        async with client.stream("GET", STREAM, headers=sent, user_token=cookies.session_token(request),
                                 read_timeout=quiet) as answer:
            if answer.status_code != 200:
                body = None
                try:
                    body = json.loads(await answer.aread() or b"null")
                except ValueError:
                    pass
                await _refuse(request, _refusal(answer.status_code, body, answer.headers.get("retry-after")))
                return
            response = await request.respond(content_type="text/event-stream; charset=utf-8", headers=HEADERS)
            async for chunk in answer.aiter_raw():
                await response.send(chunk)
    except errors.HttpError:  # unreachable, 5xx, breaker open: said once, the browser retries later
        await _refuse(request, _refusal(503, None, "5"))
        return
    except httpx.HTTPError as error:  # the runtime went silent or dropped mid-stream: end it, the browser reconnects
        log.info("live relay of %s ended: %s", account_id, type(error).__name__)
