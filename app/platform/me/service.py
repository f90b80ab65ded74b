"""The ``/api/me`` rules, as calls to the identity server on the person's behalf (their session
token), never its database.

Re-authentication is enforced where the data lives: the identity server refuses its guarded
writes (addresses, recovery codes) with 403 ``ReauthRequired``, relayed here with the dashboard's
``Details`` (session/errors.py, :func:`reauth_details`). The profile's name is not guarded there
(a name opens nothing), so :func:`require_recent` asks first for ``PATCH /api/me``: a write of the
family. When the identity server cannot say, the answer is 403 ``ReauthIndisponivel``, never a
write let through.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from app.http import errors
from app.http.services import ServiceClient
from app.platform.session.errors import AddressTakesNoMail, SendingRefused, ReauthUnavailable, ReauthRequired, \
    reauth_details
from app.platform.session.service import Caller, call

log = logging.getLogger("herald.dashboard")
ANY = ("password", "totp", "email_otp", "passkey")
EVENTS_DEFAULT, EVENTS_MAX = 20, 100
ADDRESS_ID = re.compile(r"eml_[0-9a-f]{24}")


def _malformed(what: str) -> errors.UpstreamError:
    log.error("identity answered %s with an unexpected body", what)
    return errors.UpstreamError()


def _list(body: dict, key: str, what: str) -> list[dict]:
    rows = body.get(key)
    if not isinstance(rows, list):
        raise _malformed(what)
    return [row for row in rows if isinstance(row, dict)]


# -- re-authentication ----------------------------------------------------------------------------

async def reauth_status(client: ServiceClient, caller: Caller, token: str, accepted: tuple[str, ...] = ANY) -> dict:
    return await call(client, caller, "GET", f"/v1/auth/reauth?accepted={','.join(accepted)}", user_token=token,
                      outage=ReauthUnavailable)


async def require_recent(client: ServiceClient, caller: Caller, token: str, accepted: tuple[str, ...] = ANY) -> None:
    """403 ``ReauthRequired`` (with the ways to re-authenticate) unless the session's last proof is
    recent; 403 ``ReauthIndisponivel`` when the identity server cannot tell."""
    state = await reauth_status(client, caller, token, accepted)
    if state.get("recent") is True:
        return
    if state.get("recent") is not False:
        raise ReauthUnavailable()
    raise ReauthRequired(details=reauth_details(state))


async def start_reauth(client: ServiceClient, caller: Caller, token: str, method: str, email_id: str | None) -> dict:
    return await call(client, caller, "POST", "/v1/auth/reauth/start", json={"method": method, "email_id": email_id},
                      user_token=token)


async def reauthenticate(client: ServiceClient, caller: Caller, token: str, body: dict[str, Any]) -> dict:
    return await call(client, caller, "POST", "/v1/auth/reauth", json=body, user_token=token)


# -- profile and recovery codes -------------------------------------------------------------------

async def account(client: ServiceClient, caller: Caller, token: str, user_id: str) -> tuple[dict, dict]:
    """The person's user record and second-factor state."""
    user = (await call(client, caller, "GET", f"/v1/users/{user_id}", user_token=token)).get("user")
    if not isinstance(user, dict):
        raise _malformed("the account")
    return user, await call(client, caller, "GET", "/v1/2fa", user_token=token)


async def rename(client: ServiceClient, caller: Caller, token: str, user_id: str, name: str) -> None:
    await require_recent(client, caller, token)
    await call(client, caller, "PATCH", f"/v1/users/{user_id}", json={"name": name}, user_token=token)


async def recovery_codes(client: ServiceClient, caller: Caller, token: str) -> list[str]:
    """Ten new codes; the earlier ones stop working. The identity server wants a recent app code
    or e-mailed code (``totp`` or ``email_otp``) on this session."""
    body = await call(client, caller, "POST", "/v1/auth/recovery-codes", user_token=token)
    codes = body.get("recovery_codes")
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        raise _malformed("the recovery codes")
    return codes


# -- e-mail addresses -----------------------------------------------------------------------------

async def addresses(client: ServiceClient, caller: Caller, token: str) -> list[dict]:
    return _list(await call(client, caller, "GET", "/v1/auth/emails", user_token=token), "emails", "the addresses")


async def add_address(client: ServiceClient, caller: Caller, token: str, email: str) -> None:
    await call(client, caller, "POST", "/v1/auth/emails", json={"email": email}, user_token=token)


def _address_path(email_id: str, tail: str = "") -> str:
    if not ADDRESS_ID.fullmatch(email_id):
        raise errors.NotFound("No such e-mail address.")
    return f"/v1/auth/emails/{email_id}{tail}"


async def remove_address(client: ServiceClient, caller: Caller, token: str, email_id: str) -> None:
    await call(client, caller, "DELETE", _address_path(email_id), user_token=token)


async def make_primary(client: ServiceClient, caller: Caller, token: str, email_id: str) -> list[dict]:
    body = await call(client, caller, "POST", _address_path(email_id, "/primary"), user_token=token)
    return _list(body, "emails", "the addresses")


async def resend_verification(client: ServiceClient, caller: Caller, token: str, email_id: str) -> None:
    """The address's verification link again (identity: 409 when it is verified)."""
    await call(client, caller, "POST", _address_path(email_id, "/verify/resend"), user_token=token)


async def resend_address_verification(client: ServiceClient, caller: Caller, token: str, email_id: str) -> None:
    """``/api/me`` wording of :func:`resend_verification`: a verified address is 422
    ``EnderecoNaoRecebe``; the identity server unable to queue the e-mail is 502 ``EnvioRecusado``."""
    try:
        await call(client, caller, "POST", _address_path(email_id, "/verify/resend"), user_token=token,
                   outage=SendingRefused)
    except errors.Conflict:
        raise AddressTakesNoMail() from None


# -- security trail -------------------------------------------------------------------------------

async def events(client: ServiceClient, caller: Caller, token: str, before: str | None, limit: int) -> dict:
    params = f"limit={limit}" + (f"&before={before}" if before else "")
    try:
        body = await call(client, caller, "GET", f"/v1/auth/events?{params}", user_token=token)
    except errors.ValidationError:
        raise errors.Unprocessable("'antes' is not an event of this trail.", details={"antes": "unknown event"}) \
            from None
    return {"events": _list(body, "events", "the trail"), "has_more": body.get("has_more") is True,
            "next": body.get("next_before") if isinstance(body.get("next_before"), str) else None}
