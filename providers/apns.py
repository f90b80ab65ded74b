"""Push to Apple devices through APNs: token-based authentication (an ES256 JWT signed with the
team's .p8 key, pyjwt) over HTTP/2 (httpx with h2).

Configuration::

    team_id, key_id, private_key    the signing key (PEM of the .p8 file)
    topic                           the app's bundle id (apns-topic)
    environment                     "production" (default) or "sandbox"
    base_url                        overrides the host chosen by ``environment`` (a tenant's goes
                                    through kit.egress: https, port 443, public addresses)

The provider token is reused for 50 minutes (Apple refuses tokens older than an hour and
throttles refreshing more often than every 20 minutes). ``BadDeviceToken`` and ``Unregistered``
(410) raise InvalidDeviceToken: the device is forgotten.
"""

from __future__ import annotations

import time
import uuid

import jwt

from providers.base import Outgoing, PushProvider, Receipt
from providers.errors import InvalidDeviceToken, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer

HOSTS = {"production": "https://api.push.apple.com", "sandbox": "https://api.sandbox.push.apple.com"}
TOKEN_REUSE_SECONDS = 50 * 60
DEAD_TOKEN_REASONS = {"BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"}
_APNS_ID = uuid.UUID("0f0c7d2e-5a7b-4d39-9b8e-3c1f6f1b2a90")


class ApnsProvider(HttpProvider, PushProvider):
    key = "apns"
    http2 = True

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        missing = [name for name in ("team_id", "key_id", "private_key", "topic") if not self.config.get(name)]
        if missing:
            raise ProviderConfigError(f"apns provider needs {', '.join(missing)}")
        environment = self.config.get("environment", "production")
        if environment not in HOSTS:
            raise ProviderConfigError("apns environment must be production or sandbox")
        self.base_url = self.config.get("base_url", HOSTS[environment]).rstrip("/")
        self._token: tuple[str, float] | None = None

    def provider_token(self) -> str:
        if self._token is None or self._token[1] <= time.time():
            now = int(time.time())
            try:
                token = jwt.encode({"iss": self.config["team_id"], "iat": now}, self.config["private_key"],
                                   algorithm="ES256", headers={"kid": self.config["key_id"]})
            except (ValueError, TypeError, jwt.PyJWTError) as error:
                raise ProviderConfigError(f"apns private key cannot sign: {error}") from error
            self._token = (token, now + TOKEN_REUSE_SECONDS)
        return self._token[0]

    async def send(self, message: Outgoing) -> Receipt:
        content = message.content or {}
        payload = {**(content.get("Data") or {}),
                   "aps": {"alert": {"title": content.get("Title", ""), "body": content.get("Body", "")}}}
        headers = {
            "authorization": f"bearer {self.provider_token()}",
            "apns-topic": self.config["topic"],
            "apns-push-type": "alert",
            "apns-priority": "10",
            # Stable per message: a retried message carries the same apns-id.
            "apns-id": str(uuid.uuid5(_APNS_ID, message.message_id)),
        }
        response = await self.post(f"{self.base_url}/3/device/{message.recipient}", "apns", json=payload,
                                   headers=headers)
        if response.status_code >= 400:
            try:
                reason = str(response.json().get("reason", ""))
            except (ValueError, AttributeError):
                reason = ""
            if reason in DEAD_TOKEN_REASONS or response.status_code == 410:
                # Only a reason of the known list is quoted: the answer's text is not ours to show.
                known = reason if reason in DEAD_TOKEN_REASONS else "HTTP 410"
                raise InvalidDeviceToken(f"apns: the device token is no longer valid ({known})")
            if reason == "ExpiredProviderToken":
                self._token = None
                raise TransientProviderError(f"apns: provider token expired: {describe(response)}", retry_after=1)
        raise_for_answer(response, "apns")
        return Receipt(response.headers.get("apns-id", headers["apns-id"]))
