"""The dashboard session's rules, as calls to the identity server (never its database).

Every call carries who the person is as plain values (:class:`Caller`): their address and user
agent, forwarded so the identity server's per-address throttles and session records see the
person and not the platform. The address travels in ``X-Service-Client-Ip`` and the identity
server believes it only next to the service credential in ``X-Service-Token``
(app/identity/throttle.py); the ``Authorization`` header stays free for the user's own token.

A login ends with the session's dashboard JWT (``POST /v1/auth/session-token``): that, not the
identity server's opaque token, is what the browser holds.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.http import errors
from app.http.services import ServiceClient
from app.platform.session.errors import IdentityRefusal, LogoutFailed, refusal

log = logging.getLogger("herald.dashboard")
SESSION_ID = re.compile(r"ses_[0-9a-f]{24}")


@dataclass(frozen=True)
class Caller:
    ip: str
    user_agent: str
    service_token: str | None = field(default=None, repr=False)

    def headers(self) -> dict[str, str]:
        sent = {"User-Agent": (self.user_agent or "herald-platform")[:512]}
        if self.service_token and self.ip:
            sent.update({"X-Service-Client-Ip": self.ip, "X-Service-Token": self.service_token})
        return sent


@dataclass(frozen=True)
class SignedIn:
    token: str
    user_id: str
    email: str
    expires_at: datetime


@dataclass(frozen=True)
class Challenge:
    ticket: str
    email: str
    expires_in: int
    methods: tuple[str, ...]


async def call(client: ServiceClient, caller: Caller, method: str, path: str, *, json: Any = None,
               user_token: str | None = None, outage: type[errors.HttpError] = errors.UpstreamError) -> dict:
    """One identity call on the person's behalf; its JSON body, or the platform's error for a 4xx."""
    answer = await client.request(method, path, json=json, user_token=user_token, send_credential=False,
                                  headers=caller.headers(), outage=outage)
    if not answer.ok:
        raise refusal(answer.status, answer.body, answer.headers)
    return answer.body if isinstance(answer.body, dict) else {}


def _malformed(what: str) -> errors.UpstreamError:
    log.error("identity answered %s with an unexpected body", what)
    return errors.UpstreamError()


async def signed_in(client: ServiceClient, caller: Caller, opened: dict) -> SignedIn:
    """The dashboard JWT of the session a login just opened."""
    opaque = opened.get("token")
    if not isinstance(opaque, str) or not opaque:
        raise _malformed("a login")
    body = await call(client, caller, "POST", "/v1/auth/session-token", user_token=opaque)
    try:
        return SignedIn(token=_text(body["token"]), user_id=_text(body["user_id"]),
                        email=_text(opened["user"]["email"]),
                        expires_at=datetime.fromisoformat(_text(body["expires_at"])))
    except (KeyError, TypeError, ValueError):
        raise _malformed("a session token") from None


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError("not a string")
    return value


async def login(client: ServiceClient, caller: Caller, email: str, password: str) -> SignedIn | Challenge:
    """The password step: a session, or the second-step challenge of an account with a factor."""
    body = await call(client, caller, "POST", "/v1/auth/login", json={"email": email, "password": password})
    if body.get("two_factor_required") is True:
        ticket, expires_in = body.get("ticket"), body.get("ticket_expires_in")
        if not isinstance(ticket, str) or not isinstance(expires_in, int):
            raise _malformed("a login challenge")
        methods = tuple(m for m in body.get("methods") or () if isinstance(m, str))
        return Challenge(ticket=ticket, email=email, expires_in=expires_in, methods=methods)
    return await signed_in(client, caller, body)


async def _with_ticket(client: ServiceClient, caller: Caller, path: str, json: dict) -> dict:
    """A call that carries a login's challenge ticket: a ticket the identity server does not
    accept (forged, or of another method) is the second step's 401 ``TwoFactorExpired``."""
    try:
        return await call(client, caller, "POST", path, json=json)
    except errors.ValidationError as exc:
        if exc.details and "ticket" in exc.details:
            raise IdentityRefusal(401, "TwoFactorExpired", "The sign-in challenge is not valid or has ended; "
                                                           "sign in again.") from None
        raise


async def second_step(client: ServiceClient, caller: Caller, ticket: str, code: str | None,
                      recovery_code: str | None) -> SignedIn:
    body = await _with_ticket(client, caller, "/v1/2fa/check",
                              {"ticket": ticket, "code": code, "recovery_code": recovery_code})
    return await signed_in(client, caller, body)


async def resend_code(client: ServiceClient, caller: Caller, ticket: str) -> None:
    await _with_ticket(client, caller, "/v1/2fa/resend", {"ticket": ticket})


async def logout(client: ServiceClient, caller: Caller, token: str) -> None:
    """Ends the session behind ``token``. A token the identity server does not know (or already
    ended) is signed out already; only an identity server that cannot say fails (LogoutFailed)."""
    try:
        await call(client, caller, "POST", "/v1/auth/logout", user_token=token, outage=LogoutFailed)
    except errors.AuthorizationError:
        return


async def rename(client: ServiceClient, caller: Caller, token: str, user_id: str, name: str) -> dict:
    body = await call(client, caller, "PATCH", f"/v1/users/{user_id}", json={"name": name}, user_token=token)
    user = body.get("user")
    if not isinstance(user, dict):
        raise _malformed("a profile change")
    return user


async def sessions(client: ServiceClient, caller: Caller, token: str) -> list[dict]:
    body = await call(client, caller, "GET", "/v1/auth/sessions", user_token=token)
    rows = body.get("sessions")
    if not isinstance(rows, list):
        raise _malformed("the session list")
    return [row for row in rows if isinstance(row, dict)]


async def revoke(client: ServiceClient, caller: Caller, token: str, session_id: str) -> None:
    """Ends one of the person's own sessions; another person's or an unknown id is the same 404."""
    if not SESSION_ID.fullmatch(session_id):
        raise errors.NotFound("No such session.")
    await call(client, caller, "DELETE", f"/v1/auth/sessions/{session_id}", user_token=token)
