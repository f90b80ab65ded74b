"""Recovery and verification rules, as calls to the identity server.

The reset confirmation answers 401 in three ways the client tells apart by ``Error.Code``:
``InvalidToken`` (the link's token is invalid, expired or used: one answer for the three),
``TwoFactorRequired`` (the account has an app factor and no code came), ``TwoFactorFailed`` (the
code is wrong). A password below the reset policy (12 characters, not a known breached one) is
422 ``ValidationError``. On success the identity server has ended every session of the person
and opened none.
"""

from __future__ import annotations

from app.http import errors
from app.http.services import ServiceClient
from app.platform.session.errors import IdentityRefusal
from app.platform.session.service import Caller, call


async def request_reset(client: ServiceClient, caller: Caller, email: str) -> None:
    await call(client, caller, "POST", "/v1/auth/password/reset", json={"email": email})


async def confirm_reset(client: ServiceClient, caller: Caller, token: str, password: str, code: str | None,
                        recovery_code: str | None) -> None:
    try:
        await call(client, caller, "POST", "/v1/auth/password/reset/confirm",
                   json={"token": token, "password": password, "code": code, "recovery_code": recovery_code})
    except errors.ValidationError as exc:
        if exc.details and "token" in exc.details:
            raise IdentityRefusal(401, "InvalidToken", "The link is invalid or has expired.") from None
        raise
    except IdentityRefusal as exc:
        if exc.code == "TwoFactorMissing":
            raise IdentityRefusal(401, "TwoFactorRequired",
                                  "This account has two-factor authentication: send 'Code' (or 'RecoveryCode').") from None
        raise


async def send_reset_code(client: ServiceClient, caller: Caller, token: str) -> None:
    """The e-mailed code a reset of an e-mail-method account needs; neutral for any token."""
    await call(client, caller, "POST", "/v1/auth/password/reset/send-otp", json={"token": token})


async def verify_email(client: ServiceClient, caller: Caller, token: str) -> dict:
    body = await call(client, caller, "POST", "/v1/auth/verify", json={"token": token})
    user = body.get("user")
    return user if isinstance(user, dict) else {}


async def resend_verification(client: ServiceClient, caller: Caller, token: str) -> None:
    """The verification link of the session's address again; the identity server's 429 (per
    account and per address, every request counts) is passed on as 429."""
    await call(client, caller, "POST", "/v1/auth/verify/resend", user_token=token)
