"""The body of POST /v1/push/devices, and what a web device's token may be.

``UserRef`` and ``Metadata`` are accepted and not stored. A web device's token takes one of two
forms, each checked for what it is: a PushSubscription as JSON (an ``https`` ``endpoint``,
``keys.p256dh`` a P-256 public key and ``keys.auth`` a 16-byte secret, both base64url) for
standard Web Push, or a plain FCM registration token (a web app using Firebase Messaging).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field

from app.http import errors
from app.http.bodies import Body, parse_json


class DeviceRegistration(Body):
    token: Annotated[str, Field(min_length=1, max_length=2048)]
    """The device's push token; for `web`, a browser's PushSubscription as JSON or an FCM registration token."""
    platform: Literal["ios", "android", "web"]
    """`ios`, `android` or `web`."""
    user_ref: Annotated[str, Field(max_length=256)] | None = None
    """Your reference for the device's user (at most 256 characters); accepted, not stored."""
    metadata: dict[str, Annotated[str, Field(max_length=1024)]] | None = None
    """Your labels for the device (name to value); accepted, not stored."""


# FCM registration tokens: base64url characters and a colon, some 150 to 200 characters long.
FCM_TOKEN = re.compile(r"^[A-Za-z0-9_:-]{32,1024}\Z")
WEB_TOKEN_FORMS = "a PushSubscription as JSON (endpoint, keys.p256dh, keys.auth) or an FCM registration token"
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]+={0,2}\Z")


def _base64url(value: Any) -> bytes | None:
    if not isinstance(value, str) or not _BASE64URL.match(value):
        return None
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def _subscription_problem(token: str) -> str | None:
    """What is wrong with a PushSubscription JSON, or None."""
    try:
        subscription = parse_json(token)
    except errors.BadRequest:
        return "is not valid JSON"
    if not isinstance(subscription, dict) or not isinstance(subscription.get("keys"), dict):
        return "needs endpoint and keys (p256dh, auth)"
    endpoint = subscription.get("endpoint")
    parts = urlsplit(endpoint) if isinstance(endpoint, str) else None
    if parts is None or parts.scheme != "https" or not parts.hostname:
        return "endpoint must be an https URL"
    p256dh, auth = _base64url(subscription["keys"].get("p256dh")), _base64url(subscription["keys"].get("auth"))
    if p256dh is None or len(p256dh) != 65 or p256dh[0] != 4:
        return "keys.p256dh must be an uncompressed P-256 public key, base64url (65 bytes)"
    if auth is None or len(auth) != 16:
        return "keys.auth must be a 16-byte secret, base64url"
    return None


def check_web_token(token: str) -> None:
    if token.lstrip().startswith("{"):
        problem = _subscription_problem(token)
        if problem is not None:
            raise errors.ValidationError(f"A web device's PushSubscription {problem}.",
                                         details={"Token": f"PushSubscription {problem}"})
    elif not FCM_TOKEN.match(token):
        raise errors.ValidationError(f"A web device's Token is {WEB_TOKEN_FORMS}.",
                                     details={"Token": f"must be {WEB_TOKEN_FORMS}"})
