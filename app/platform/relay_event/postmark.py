"""Postmark's webhooks: checked by the basic-auth credentials in the URL the account gives Postmark.

Postmark does not sign its webhooks; its documentation's answer is credentials in the URL
(``https://<webhook_username>:<webhook_password>@<platform>/callbacks/postmark/<account id>``), which
Postmark sends as ``Authorization: Basic``. Both come from the account's ``postmark`` configuration;
without a ``webhook_password`` every call is refused. As an option, ``webhook_sources`` (comma-separated
CIDR ranges: Postmark's published webhook addresses) also limits where a call may come from.
Record types used (RecordType): ``Delivery``, ``Bounce`` (by ``Type``: hard, soft or a complaint)
and ``SpamComplaint``; the others (opens, clicks, subscription changes) change nothing.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import ipaddress

from app.platform.relay_event.apply import RelayEvent
from models.platform.returns import Kind

HARD = {"HardBounce", "BadEmailAddress", "ManuallyDeactivated"}
SOFT = {"Transient", "SoftBounce", "DnsError", "Blocked", "AutoResponder", "ChallengeVerification",
        "SMTPApiError", "Unknown"}
COMPLAINT = {"SpamComplaint", "SpamNotification"}


def authorized(config: dict, header: str) -> bool:
    password = config.get("webhook_password")
    if not password or not header.startswith("Basic "):
        return False
    try:
        user, _, given = base64.b64decode(header[6:].strip(), validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return False
    expected_user = str(config.get("webhook_username") or "herald")
    return hmac.compare_digest(user.encode(), expected_user.encode()) & hmac.compare_digest(
        given.encode(), str(password).encode())


def from_allowed_source(config: dict, address: str) -> bool:
    """True without ``webhook_sources``; else whether ``address`` is in one of them (an unreadable
    range refuses every call: a typo must not open the door)."""
    sources = str(config.get("webhook_sources") or "").strip()
    if not sources:
        return True
    try:
        caller = ipaddress.ip_address(address)
        networks = [ipaddress.ip_network(part.strip(), strict=False) for part in sources.split(",") if part.strip()]
    except ValueError:
        return False
    return any(caller in network for network in networks)


def parse(payload: dict) -> RelayEvent | None:
    """The event a webhook reports, or None for what Herald does not act on."""
    record, message_id = payload.get("RecordType"), payload.get("MessageID")
    if not isinstance(message_id, str) or not message_id:
        return None
    if record == "Delivery":
        return RelayEvent("postmark", message_id, Kind.DELIVERED, _text(payload.get("Recipient")),
                          detail={"RelayRecord": "Delivery"})
    if record in ("Bounce", "SpamComplaint"):
        kind_name = str(payload.get("Type") or "")
        kind = Kind.COMPLAINT if record == "SpamComplaint" or kind_name in COMPLAINT else \
            Kind.HARD if kind_name in HARD else Kind.SOFT if kind_name in SOFT else None
        if kind is None:
            return None
        return RelayEvent("postmark", message_id, kind, _text(payload.get("Email")), code=kind_name[:40] or None,
                          detail={"RelayRecord": record, "RelayType": kind_name[:40]})
    return None


def _text(value) -> str | None:
    return value if isinstance(value, str) else None
