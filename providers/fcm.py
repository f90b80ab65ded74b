"""Push to Android (and iOS through Firebase) with FCM HTTP v1.

A service account signs a JWT (RS256, pyjwt) that Google's token endpoint exchanges for an
OAuth access token; the token is cached until shortly before it expires and shared by every
message of this configuration in the worker process.

Configuration::

    service_account     the service-account JSON (object or string): project_id, client_email,
                        private_key, token_uri
    base_url            default https://fcm.googleapis.com

In a tenant's configuration, ``base_url`` and ``token_uri`` go through kit.egress (https,
port 443, public addresses only).

An ``UNREGISTERED`` answer (or an invalid-token ``INVALID_ARGUMENT``) raises InvalidDeviceToken:
the device is forgotten.
"""

from __future__ import annotations

import asyncio
import json
import time

import jwt

from providers.base import Outgoing, PushProvider, Receipt
from providers.errors import InvalidDeviceToken, ProviderConfigError, TransientProviderError
from providers.http import HttpProvider, describe, raise_for_answer

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
TOKEN_LIFETIME = 3600
REFRESH_MARGIN = 60


def _fcm_error(response) -> tuple[str, str]:
    """(errorCode, message) of an FCM error answer, ("", "") when it is not one."""
    try:
        error = response.json().get("error", {})
        codes = [detail.get("errorCode", "") for detail in error.get("details", []) if isinstance(detail, dict)]
        return (str(codes[0]) if codes else ""), str(error.get("message", ""))
    except (ValueError, AttributeError, TypeError):
        return "", ""


class FcmProvider(HttpProvider, PushProvider):
    key = "fcm"

    def __init__(self, config: dict | None = None):
        super().__init__(config)
        account = self.config.get("service_account")
        if isinstance(account, str):
            try:
                account = json.loads(account)
            except ValueError:
                raise ProviderConfigError("fcm service_account is not valid JSON") from None
        missing = [name for name in ("project_id", "client_email", "private_key")
                   if not isinstance(account, dict) or not account.get(name)]
        if missing:
            raise ProviderConfigError(f"fcm service_account needs {', '.join(missing)}")
        self.account = account
        self.token_uri = account.get("token_uri") or "https://oauth2.googleapis.com/token"
        base = self.config.get("base_url", "https://fcm.googleapis.com").rstrip("/")
        self.url = f"{base}/v1/projects/{account['project_id']}/messages:send"
        self._token: tuple[str, float] | None = None
        self._token_lock = asyncio.Lock()

    async def access_token(self) -> str:
        async with self._token_lock:
            if self._token is not None and self._token[1] > time.time():
                return self._token[0]
            now = int(time.time())
            assertion = jwt.encode(
                {"iss": self.account["client_email"], "scope": SCOPE, "aud": self.token_uri, "iat": now,
                 "exp": now + TOKEN_LIFETIME},
                self.account["private_key"], algorithm="RS256",
                headers={"kid": self.account["private_key_id"]} if self.account.get("private_key_id") else None)
            response = await self.post(self.token_uri, "fcm token endpoint", data={
                "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer", "assertion": assertion})
            if response.status_code in (400, 401, 403):
                raise ProviderConfigError(f"fcm token endpoint refused the service account: {describe(response)}")
            raise_for_answer(response, "fcm token endpoint")
            answer = response.json()
            expires_in = float(answer.get("expires_in", TOKEN_LIFETIME))
            self._token = (answer["access_token"], time.time() + max(0.0, expires_in - REFRESH_MARGIN))
            return self._token[0]

    async def send(self, message: Outgoing) -> Receipt:
        content = message.content or {}
        data = {key: value if isinstance(value, str) else json.dumps(value)
                for key, value in (content.get("Data") or {}).items()}
        body = {"message": {"token": message.recipient,
                            "notification": {"title": content.get("Title", ""), "body": content.get("Body", "")}}}
        if data:
            body["message"]["data"] = data
        token = await self.access_token()
        response = await self.post(self.url, "fcm", json=body, headers={"Authorization": f"Bearer {token}"})
        if response.status_code == 401:  # the access token was revoked or expired early: fetch another next time
            self._token = None
            raise TransientProviderError(f"fcm refused the access token: {describe(response)}", retry_after=1)
        code, text = _fcm_error(response) if response.status_code >= 400 else ("", "")
        if code == "UNREGISTERED" or (code == "INVALID_ARGUMENT" and "registration token" in text.lower()):
            raise InvalidDeviceToken(f"fcm: the device token is no longer valid ({code})")
        raise_for_answer(response, "fcm")
        return Receipt(response.json()["name"])
