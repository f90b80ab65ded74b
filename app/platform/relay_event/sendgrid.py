"""POST /callbacks/sendgrid/{account id}: SendGrid's Event Webhook, signed, turned into message states.

SendGrid's Signed Event Webhook signs each request with ECDSA (P-256, SHA-256) over the
``X-Twilio-Email-Event-Webhook-Timestamp`` header's value followed by the raw body; the signature
(base64 DER) is in ``X-Twilio-Email-Event-Webhook-Signature``. It is checked with the account's
``verification_key`` (the public key SendGrid shows, base64 DER; docs/relays.md). A missing or
wrong signature, a timestamp more than 5 minutes off, or a request already taken (a replay) answers
403 and changes nothing. The body is a JSON array of events; each that Herald acts on
(``delivered``, ``bounce``, ``deferred``, ``spamreport``) moves its message through
app/platform/relay_event/apply.py, all in one transaction; the others (opens, clicks,
``processed`` ...) are ignored. The answer is 200 ``{"Outcomes": [...]}``, one per event acted on
(``unmatched`` too: SendGrid must not retry what will never match), as the other relays' callbacks.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.responses import reply
from app.platform import db
from app.platform.relay_event import replays
from app.platform.relay_event.accounts import relay_account
from app.platform.relay_event.apply import OUTCOMES, RelayEvent, apply_event
from models.platform.returns import Kind

bp = Blueprint("sendgrid_events", url_prefix="/callbacks/sendgrid")

SIGNATURE = "x-twilio-email-event-webhook-signature"
TIMESTAMP = "x-twilio-email-event-webhook-timestamp"
MAX_EVENTS = 1000


def public_key(text: str | None) -> ec.EllipticCurvePublicKey | None:
    """The verification key as SendGrid shows it (base64 DER), or PEM; None when it is not a P-256 key."""
    if not text:
        return None
    try:
        if "BEGIN PUBLIC KEY" in text:
            key = serialization.load_pem_public_key(text.encode())
        else:
            key = serialization.load_der_public_key(base64.b64decode(text.strip(), validate=True))
    except (ValueError, binascii.Error, TypeError):
        return None
    if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, ec.SECP256R1):
        return None
    return key


def signature_valid(key: ec.EllipticCurvePublicKey | None, signature: str, timestamp: str, body: bytes,
                    now: float | None = None) -> bool:
    if key is None or not signature or not timestamp.isdigit():
        return False
    if abs((now if now is not None else time.time()) - int(timestamp)) > replays.TOLERANCE:
        return False
    try:
        key.verify(base64.b64decode(signature, validate=True), timestamp.encode() + body, ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True


def classify(event: dict) -> Kind | None:
    name = event.get("event")
    if name == "delivered":
        return Kind.DELIVERED
    if name == "bounce":  # "blocked": refused for now (a reputation block), not the address for good
        return Kind.SOFT if event.get("type") == "blocked" else Kind.HARD
    if name == "deferred":
        return Kind.SOFT
    if name == "spamreport":
        return Kind.COMPLAINT
    return None


def _text(value) -> str | None:
    return value if isinstance(value, str) and value else None


def parse(event) -> RelayEvent | None:
    """The event as Herald acts on it; None for what it ignores or cannot tie to a message.
    ``sg_message_id``'s first part (before the first ``.``) is the X-Message-Id of the hand-off."""
    kind = classify(event) if isinstance(event, dict) else None
    message_id = _text(event.get("sg_message_id")) if kind is not None else None
    if kind is None or message_id is None:
        return None
    code = " ".join(part for part in (_text(event.get("status")), _text(event.get("reason"))
                                      or _text(event.get("response"))) if part)
    detail = {name: value for name, value in (("Event", _text(event.get("event"))), ("Diagnostic", code or None),
                                              ("EventId", _text(event.get("sg_event_id")))) if value}
    return RelayEvent("sendgrid", message_id.split(".", 1)[0], kind, recipient=_text(event.get("email")),
                      code=code or None, detail={name: value[:300] for name, value in detail.items()})


# The body is read raw (the signature covers its bytes): no strict model is declared.
@bp.post("/<tenant_id:id>", ctx_auth="signature", ctx_errors=(400,),
         ctx_responses=OUTCOMES)
async def events(request: Request, tenant_id: str) -> HTTPResponse:
    """Receive a batch of SendGrid events for the account's messages sent through SendGrid.

    Called by SendGrid: signed with the account's verification key, each batch taken once (403 otherwise). 400 for a
    body that is not a JSON array of events (at most the batch's limit)."""
    tenant, config = await relay_account(db.connection(), tenant_id, "sendgrid", request.app.ctx.settings)
    signature, body = request.headers.get(SIGNATURE, ""), request.body or b""
    if tenant is None or not signature_valid(public_key(config.get("verification_key")), signature,
                                             request.headers.get(TIMESTAMP, ""), body):
        raise errors.PermissionDenied("The event signature is not valid.")
    redis, seen = request.app.ctx.redis, hashlib.sha256(signature.encode()).hexdigest()
    if not await replays.first_use(redis, "sendgrid", tenant_id, seen):
        raise errors.PermissionDenied("These events were already received.")
    try:
        batch = json.loads(body)
    except ValueError:
        batch = None
    if not isinstance(batch, list) or len(batch) > MAX_EVENTS:
        await replays.forget(redis, "sendgrid", tenant_id, seen)
        raise errors.ValidationError(f"The body must be a JSON array of at most {MAX_EVENTS} events.")
    found = [event for event in map(parse, batch) if event is not None]
    outcomes = []
    try:
        if found:
            async with db.transaction() as conn:
                for event in found:
                    outcomes.append(await apply_event(conn, tenant.id, event))
            request.app.ctx.wakeup.poke()
        await replays.recorded(redis, "sendgrid", tenant_id, seen)
    except BaseException:
        await replays.forget(redis, "sendgrid", tenant_id, seen)
        raise
    return reply(request, {"Outcomes": outcomes or ["ignored"]})
