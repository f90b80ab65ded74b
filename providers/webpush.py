"""Web Push (RFC 8030) with VAPID (RFC 8292): the payload encrypted with pywebpush (aes128gcm,
RFC 8291; only its encoder is used, never its own requests/aiohttp sending), the VAPID JWT
signed with the tenant's own key pair (py_vapid), sent with httpx through :mod:`kit.egress`.

A web device's token is the browser's PushSubscription as JSON:
``{"endpoint": "https://...", "keys": {"p256dh": "...", "auth": "..."}}``. The endpoint is the
tenant's (whoever configured the provider), so it always goes through the egress policy: https on
port 443 to a public address, checked again at connect time; a refused endpoint fails the
message (PermanentProviderError) and keeps the device.

Configuration (one VAPID key pair per tenant, see :func:`generate_vapid_keys`)::

    vapid_private_key   base64url of the raw 32-byte P-256 private key (or a PEM)
    vapid_subject       "mailto:ops@example.com" or an https URL
    ttl                 seconds the push service keeps an undelivered message (default 86400)

404 and 410 from the push service mean the subscription is gone: InvalidDeviceToken.
"""

from __future__ import annotations

import base64
import json
import time
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from pywebpush import WebPusher, WebPushException

from kit import egress
from providers.base import Outgoing, PushProvider, Receipt
from providers.errors import InvalidDeviceToken, PermanentProviderError, ProviderConfigError
from providers.http import HttpProvider, raise_for_answer


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def generate_vapid_keys() -> tuple[str, str]:
    """A new VAPID pair: (private key, public key as the browser's applicationServerKey), base64url."""
    private = ec.generate_private_key(ec.SECP256R1())
    raw_private = private.private_numbers().private_value.to_bytes(32, "big")
    public = private.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
    return _b64url(raw_private), _b64url(public)


def subscription_of(token: str) -> dict:
    try:
        subscription = json.loads(token)
        endpoint = subscription["endpoint"]
        keys = subscription["keys"]
        keys["p256dh"], keys["auth"]  # noqa: B018 - both must be there
        if not isinstance(endpoint, str):
            raise TypeError(endpoint)
    except (ValueError, KeyError, TypeError):
        raise PermanentProviderError("a web push token must be a PushSubscription JSON with endpoint and keys")
    return subscription


def is_subscription(token: str) -> bool:
    """Whether a device token is a PushSubscription JSON (else, for a web device, an FCM token)."""
    if not token.lstrip().startswith("{"):
        return False
    try:
        subscription_of(token)
    except PermanentProviderError:
        return False
    return True


class WebPushProvider(HttpProvider, PushProvider):
    key = "webpush"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        private, subject = self.config.get("vapid_private_key"), self.config.get("vapid_subject")
        if not private or not subject:
            raise ProviderConfigError("webpush provider needs vapid_private_key and vapid_subject")
        if not (subject.startswith("mailto:") or subject.startswith("https://")):
            raise ProviderConfigError("vapid_subject must be a mailto: or https: URL")
        try:
            if private.lstrip().startswith("-----BEGIN"):
                self.vapid = Vapid02.from_pem(private.encode())
            else:
                self.vapid = Vapid02.from_raw(private.encode())
        except Exception as error:  # noqa: BLE001 - py_vapid raises several kinds
            raise ProviderConfigError(f"vapid_private_key cannot be read: {error}") from error

    def egress_policy(self) -> egress.Policy:
        return self.egress  # the subscription endpoints are always the tenant's

    async def send(self, message: Outgoing) -> Receipt:
        subscription = subscription_of(message.recipient)
        endpoint = subscription["endpoint"]
        problem = self.egress.url_problem(endpoint)
        if problem:
            raise PermanentProviderError(f"the subscription endpoint {problem}")
        content = message.content or {}
        payload = json.dumps({"title": content.get("Title", ""), "body": content.get("Body", ""),
                              "data": content.get("Data") or {}, "messageId": message.message_id},
                             separators=(",", ":")).encode()
        try:
            encrypted = WebPusher(subscription).encode(payload, "aes128gcm")
        except (WebPushException, ValueError) as error:
            raise PermanentProviderError(f"the subscription keys cannot encrypt: {error}") from error
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "exp": int(time.time()) + 12 * 3600,
                  "sub": self.config["vapid_subject"]}
        headers = {**self.vapid.sign(claims), "Content-Encoding": "aes128gcm",
                   "TTL": str(int(self.config.get("ttl", 86400))), "Urgency": "normal",
                   "Content-Type": "application/octet-stream"}
        response = await self.post(endpoint, "webpush", unsafe=PermanentProviderError, content=encrypted["body"],
                                   headers=headers)
        if response.status_code in (404, 410):
            raise InvalidDeviceToken(f"webpush: the subscription is gone (HTTP {response.status_code})")
        raise_for_answer(response, "webpush")
        return Receipt(response.headers.get("location") or f"webpush-{message.message_id}")
