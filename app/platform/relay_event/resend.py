"""POST /callbacks/resend/{account id}: Resend's webhooks, signed, turned into message states.

Resend signs its webhooks as Standard Webhooks (Svix) do: ``svix-id``, ``svix-timestamp`` and
``svix-signature`` headers (or the same with the ``webhook-`` prefix); the signature is
``v1,`` + base64 of HMAC-SHA256 over ``<id>.<timestamp>.<raw body>``, keyed with the base64 part of
the account's ``webhook_secret`` (``whsec_...``, docs/relays.md); the header may hold several,
space-separated (while a secret is rotated). A missing or wrong signature, a timestamp more than
5 minutes off, or an id already taken (a replay) answers 403 and changes nothing. The body is one
event; ``email.delivered``, ``email.bounced``, ``email.delivery_delayed`` and ``email.complained``
move the message named by ``data.email_id`` through app/platform/relay_event/apply.py; the others
(``email.sent``, opens, clicks ...) are ignored. The answer is 200 ``{"Outcomes": [...]}``
(``unmatched`` too: Resend must not retry what will never match), as the other relays' callbacks.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.responses import reply
from app.platform import db
from app.platform.relay_event import replays
from app.platform.relay_event.accounts import relay_account
from app.platform.relay_event.apply import OUTCOMES, RelayEvent, apply_event
from models.platform.returns import Kind

bp = Blueprint("resend_events", url_prefix="/callbacks/resend")

EVENT_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


def secret_key(secret: str | None) -> bytes | None:
    """The key of a ``whsec_<base64>`` secret; None when it is not one."""
    if not secret or not isinstance(secret, str):
        return None
    try:
        key = base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return key or None


def sign(key: bytes, event_id: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(key, f"{event_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def signature_valid(key: bytes | None, event_id: str, timestamp: str, header: str, body: bytes,
                    now: float | None = None) -> bool:
    if key is None or not EVENT_ID.match(event_id or "") or not (timestamp or "").isdigit() or not header:
        return False
    if abs((now if now is not None else time.time()) - int(timestamp)) > replays.TOLERANCE:
        return False
    expected = sign(key, event_id, timestamp, body).encode()
    return any(hmac.compare_digest(given.encode(), expected) for given in header.split()[:8])


def classify(event: dict) -> Kind | None:
    name = event.get("type")
    if name == "email.delivered":
        return Kind.DELIVERED
    if name == "email.bounced":
        bounce = (event.get("data") or {}).get("bounce")
        kind = bounce.get("type") if isinstance(bounce, dict) else None
        return Kind.SOFT if isinstance(kind, str) and kind.lower() in ("transient", "undetermined") else Kind.HARD
    if name == "email.delivery_delayed":
        return Kind.SOFT
    if name == "email.complained":
        return Kind.COMPLAINT
    return None


def parse(event, event_id: str) -> RelayEvent | None:
    """The event as Herald acts on it; None for what it ignores or cannot tie to a message."""
    data = event.get("data") if isinstance(event, dict) else None
    kind = classify(event) if isinstance(data, dict) else None
    email_id = data.get("email_id") if kind is not None else None
    if kind is None or not isinstance(email_id, str) or not email_id:
        return None
    to = data.get("to")
    recipient = to[0] if isinstance(to, list) and len(to) == 1 and isinstance(to[0], str) else None
    bounce = data.get("bounce") if isinstance(data.get("bounce"), dict) else {}
    code = " ".join(part for part in (bounce.get("type"), bounce.get("subType"), bounce.get("message"))
                    if isinstance(part, str) and part)
    detail = {name: value[:300] for name, value in (("Event", event.get("type")), ("Diagnostic", code),
                                                    ("EventId", event_id)) if isinstance(value, str) and value}
    return RelayEvent("resend", email_id, kind, recipient=recipient, code=code or None, detail=detail)


def _header(request: Request, name: str) -> str:
    return request.headers.get(f"svix-{name}") or request.headers.get(f"webhook-{name}") or ""


# The body is read raw (the signature covers its bytes): no strict model is declared.
@bp.post("/<tenant_id:id>", ctx_auth="signature", ctx_errors=(400,),
         ctx_responses=OUTCOMES)
async def events(request: Request, tenant_id: str) -> HTTPResponse:
    """Receive a Resend event for the account's messages sent through Resend.

    Called by Resend: signed with the account's webhook secret (Svix headers), each message id taken once (403
    otherwise). 400 for a body that is not a JSON object with a `data` object."""
    tenant, config = await relay_account(db.connection(), tenant_id, "resend", request.app.ctx.settings)
    event_id, body = _header(request, "id"), request.body or b""
    if tenant is None or not signature_valid(secret_key(config.get("webhook_secret")), event_id,
                                             _header(request, "timestamp"), _header(request, "signature"), body):
        raise errors.PermissionDenied("The webhook signature is not valid.")
    redis = request.app.ctx.redis
    if not await replays.first_use(redis, "resend", tenant_id, event_id):
        raise errors.PermissionDenied("This webhook message was already received.")
    try:
        payload = json.loads(body)
    except ValueError:
        payload = None
    if not isinstance(payload, dict) or not isinstance(payload.get("data"), dict):
        await replays.forget(redis, "resend", tenant_id, event_id)
        raise errors.ValidationError("The body must be a JSON object with a data object.")
    event = parse(payload, event_id)
    outcomes = []
    try:
        if event is not None:
            async with db.transaction() as conn:
                outcomes.append(await apply_event(conn, tenant.id, event))
            request.app.ctx.wakeup.poke()
        await replays.recorded(redis, "resend", tenant_id, event_id)
    except BaseException:
        await replays.forget(redis, "resend", tenant_id, event_id)
        raise
    return reply(request, {"Outcomes": outcomes or ["ignored"]})
