"""AUTH on submission: the password is an API key of the platform holding ``email:send`` (the user
name is not read: a key names its account). Introspected through the platform like the mail API's
gate does (app/http/api_keys.py, cached at most 2 s), so a revoked key or a suspended account stops
sending within that bound.

    a publishable key (pk_live_)        535 5.7.8, counted as a failure
    no such key, or no email:send       535 5.7.8, counted as a failure
    the account suspended               535 5.7.8
    the platform cannot say             454 4.7.0 (try again), not counted
    too many failures from the address  454 4.7.0 until the window has passed (app/smtp/limits.py:
                                        counted by every smtpd process together)

An ``sk_test_`` key sends in test mode: its mail reaches the sinks, as on /v1."""

from __future__ import annotations

from base64 import b64decode
from dataclasses import dataclass

from aiosmtpd.smtp import MISSING, SMTP, AuthResult

from app.http import errors
from app.http.api_keys import looks_like_key
from app.smtp.limits import Limits, SharedFailures, address_of, failure_source
from app.smtp.upstream import Upstream

SEND = "email:send"
INVALID = "535 5.7.8 Authentication credentials invalid: the password must be a secret API key holding email:send"
PUBLISHABLE = "535 5.7.8 Publishable keys (pk_live_) cannot send mail; use a secret key holding email:send"
SUSPENDED = "535 5.7.8 The account of this key is suspended"
UNAVAILABLE = "454 4.7.0 Temporary authentication failure: API keys cannot be checked right now; try again shortly"
BLOCKED = "454 4.7.0 Too many failed authentications from your address; try again later"


@dataclass(frozen=True)
class Sender:
    """Who submits: what ``session.auth_data`` holds after a successful AUTH."""

    tenant_id: str
    mode: str  # "live", or "test" for an sk_test_ key
    key_id: str
    rate_limit: tuple[int, int] | None


class Authenticator:
    def __init__(self, upstream: Upstream, limits: Limits, shared: SharedFailures | None = None) -> None:
        self.upstream = upstream
        self.limits = limits
        self.shared = shared

    async def check(self, server: SMTP, password: bytes) -> AuthResult:
        assert server.session is not None
        address = failure_source(address_of(server.session.peer))
        if self.limits.auth_blocked(address) or (self.shared is not None and await self.shared.blocked(address)):
            return AuthResult(success=False, handled=False, message=BLOCKED)
        key = password.decode("utf-8", "replace").strip()
        if key.startswith("pk_live_"):
            return await self._failed(address, PUBLISHABLE)
        if not looks_like_key(key):
            return await self._failed(address, INVALID)
        try:
            info = await self.upstream.keys.lookup(key)
        except errors.HttpError:
            return AuthResult(success=False, handled=False, message=UNAVAILABLE)
        if info is None or info.publishable or SEND not in info.scopes:
            return await self._failed(address, PUBLISHABLE if info is not None and info.publishable else INVALID)
        if not info.tenant_active:
            return AuthResult(success=False, handled=False, message=SUSPENDED)
        sender = Sender(info.tenant_id, "test" if info.mode == "test" else "live", info.key_id, info.rate_limit)
        return AuthResult(success=True, auth_data=sender)

    async def _failed(self, address: str, reply: str) -> AuthResult:
        self.limits.auth_failed(address)
        if self.shared is not None:
            await self.shared.failed(address)
        return AuthResult(success=False, handled=False, message=reply)


async def plain_password(server: SMTP, args: list[str]) -> bytes | None:
    """The password of ``AUTH PLAIN [initial-response]`` (RFC 4616), or None when the exchange
    already answered (a malformed or aborted one)."""
    if len(args) == 1:
        blob = await server.challenge_auth("")
        if blob is MISSING:
            return None
    else:
        try:
            blob = b64decode(args[1].encode(), validate=True)
        except ValueError:
            await server.push("501 5.5.2 Can't decode base64")
            return None
    parts = blob.split(b"\x00")
    if len(parts) != 3:
        await server.push("501 5.5.2 Can't split auth value")
        return None
    return parts[2]


async def login_password(server: SMTP, args: list[str]) -> bytes | None:
    """The password of ``AUTH LOGIN`` (the user name is asked for, and not read)."""
    if len(args) == 1:
        if await server.challenge_auth(SMTP.AuthLoginUsernameChallenge) is MISSING:
            return None
    password = await server.challenge_auth(SMTP.AuthLoginPasswordChallenge)
    return None if password is MISSING else password
