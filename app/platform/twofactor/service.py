"""The second factor's management rules, as calls to the identity server's /v1/2fa routes.

``disable`` follows the contract's summary: it needs the password (not a code) and switches the
app factor to the e-mail method when the person has a verified address, so the account keeps a
second factor; without one (or when the e-mail method is already the factor) it removes it.
"""

from __future__ import annotations

from app.http.services import ServiceClient
from app.platform.session.service import Caller, call


async def state(client: ServiceClient, caller: Caller, token: str) -> dict:
    return await call(client, caller, "GET", "/v1/2fa", user_token=token)


async def setup(client: ServiceClient, caller: Caller, token: str, password: str) -> dict:
    return await call(client, caller, "POST", "/v1/2fa/setup", json={"password": password}, user_token=token)


async def verify(client: ServiceClient, caller: Caller, token: str, code: str) -> dict:
    return await call(client, caller, "POST", "/v1/2fa/verify", json={"code": code}, user_token=token)


async def disable(client: ServiceClient, caller: Caller, token: str, password: str, *, email_verified: bool) -> dict:
    current = await state(client, caller, token)
    if email_verified and current.get("method") == "totp":
        return await call(client, caller, "POST", "/v1/2fa/email", json={"password": password}, user_token=token)
    return await call(client, caller, "POST", "/v1/2fa/disable", json={"password": password}, user_token=token)
