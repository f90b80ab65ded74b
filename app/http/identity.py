"""What the identity server says about a user, asked over app/http/services.py by every other system.

Three questions, three tools:

- Is this dashboard session live?  :func:`validate_session` calls ``GET /v1/auth/validate`` with the
  user's token on every request and caches nothing: a revoked session fails on the very next request.
  :func:`require_session` is the form a surface's gate installs (Bearer header or the
  :data:`SESSION_COOKIE` cookie).
- Did the identity server sign this token?  :class:`TokenVerifier` checks an RS256 ID or access token
  against ``/.well-known/jwks.json`` (issuer, audience, expiry). The key set is cached for the JWKS's
  own max-age and fetched again on an unknown ``kid``, at most once every :data:`JWKS_REFETCH_SECONDS`,
  so forged ``kid`` values cannot make us hammer the identity server.
- May this user use this product in this tenant?  :class:`Decisions` asks ``POST /v1/authz/decide``
  and keeps each answer at most :data:`DECISION_TTL_SECONDS` (the contract's bound on how long a
  revoked grant may still work), in a bounded in-process cache.

Identity down is never an allow and never a 500: the session hop answers 502 (the dashboard's code),
token verification and decisions 503 with Retry-After (a caller may name another class).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence
from urllib.parse import urlsplit

import jwt
from sanic import Request, Sanic

from app.http import errors
from app.http.services import BEARER_TOKEN, Outage, ServiceClient, bearer_token, outage_error, services

log = logging.getLogger("herald.identity_client")

SESSION_COOKIE = "herald_session"
DECISION_TTL_SECONDS = 60.0
DECISION_CACHE_ENTRIES = 10_000
JWKS_MAX_AGE_SECONDS = 300.0  # the identity server's Cache-Control on the JWKS
JWKS_REFETCH_SECONDS = 10.0
JWKS_STALE_SECONDS = 3600.0  # how long cached keys still verify while the identity server is away
TOKEN_LEEWAY_SECONDS = 5

IdentitySource = Sanic | ServiceClient


def _identity(source: IdentitySource) -> ServiceClient:
    return source if isinstance(source, ServiceClient) else services(source).client("identity")


# -- the session hop -----------------------------------------------------------------------------

@dataclass(frozen=True)
class SessionPrincipal:
    """A live dashboard session, as the identity server answered for it just now."""

    user_id: str
    email: str
    name: str | None
    email_verified: bool
    session_id: str
    token: str = field(repr=False)  # forwarded on the user's behalf to the identity server's own routes
    # The read-only support session (sup_...) this session is inside, and the account it entered;
    # None outside one (docs/operator.md; app/http/support_access.py).
    support_id: str | None = None
    support_tenant: str | None = None
    # How the session was opened (``password``, ``password+totp``, ``passkey`` ...): a passkey is
    # possession and a verified user at once, what the operator surface asks of staff.
    method: str = ""


async def validate_session(source: IdentitySource, token: str) -> SessionPrincipal:
    """The session behind ``token``; 401 when it is unknown, expired or revoked; 502 when the
    identity server cannot say."""
    if not token or not BEARER_TOKEN.fullmatch(token):
        raise errors.AuthorizationError("The session is not valid.")
    client = _identity(source)
    answer = await client.get("/v1/auth/validate", user_token=token)
    if answer.status == 401:
        raise errors.AuthorizationError("The session is not valid or has ended.")
    body = answer.body if isinstance(answer.body, dict) else {}
    user, session = body.get("user"), body.get("session")
    if answer.status == 200 and body.get("valid") is True and isinstance(user, dict) \
            and isinstance(session, dict):
        try:
            support = session.get("support")
            seat = (_text(support["id"]), _text(support["tenant"])) if support is not None else (None, None)
            return SessionPrincipal(user_id=_text(user["id"]), email=_text(user["email"]),
                                    name=user.get("name"), email_verified=user.get("email_verified") is True,
                                    session_id=_text(session["id"]), token=token, support_id=seat[0],
                                    support_tenant=seat[1], method=str(session.get("method") or ""))
        except (KeyError, TypeError):
            pass
    log.error("identity answered the session hop with %s %s; treated as an outage",
              answer.status, answer.error_code)
    raise errors.UpstreamError()


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError("not a string")
    return value


def session_token(request: Request) -> str | None:
    """The session credential of a dashboard request: ``Authorization: Bearer``, else the cookie."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return request.cookies.get(SESSION_COOKIE) or None


async def require_session(request: Request) -> SessionPrincipal:
    """For a surface's gate: the request's live session (kept on ``request.ctx.session``), or 401."""
    token = session_token(request)
    if token is None:
        raise errors.AuthorizationError(
            "A session is required: send 'Authorization: Bearer <session token>' "
            f"or the {SESSION_COOKIE} cookie.")
    principal = await validate_session(request.app, token)
    request.ctx.session = principal
    return principal


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, lower-cased; None for anything else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def cookie_write_origins(app: Sanic) -> frozenset[str]:
    """The origins a write with the session cookie may come from on ``app``'s system: the
    platform's (the dashboard), the system's own and the configured dashboard origins; made once."""
    found = getattr(app.ctx, "cookie_write_origins", None)
    if found is None:
        settings = app.ctx.settings
        found = app.ctx.cookie_write_origins = frozenset(filter(None, (
            origin_of(settings.url_of("platform")), origin_of(settings.url_of(app.ctx.system.name)),
            *map(origin_of, settings.dashboard_origins))))
    return found


def refuse_cross_origin_cookie_write(request: Request, origins: frozenset[str]) -> None:
    """CSRF: a write that carries the session cookie and no Bearer header must come from one of
    ``origins`` (its Origin, else its Referer), or 403 ``PermissionDenied``."""
    if request.method in SAFE_METHODS or bearer_token(request) or SESSION_COOKIE not in request.cookies:
        return
    if origin_of(request.headers.get("origin") or request.headers.get("referer") or "") not in origins:
        raise errors.PermissionDenied("A write with the session cookie must carry the dashboard's Origin header.")


# -- token verification --------------------------------------------------------------------------

class TokenVerifier:
    """Verifies RS256 tokens the identity server signed, with its published keys."""

    def __init__(self, client: ServiceClient, *, issuer: str, audience: str | Sequence[str],
                 outage: Outage = errors.ServiceUnavailable, clock: Callable[[], float] = time.monotonic):
        self.client = client
        self.issuer = issuer
        self.audience = audience
        self.outage = outage
        self.clock = clock
        self._keys: dict[str, jwt.PyJWK] = {}
        self._fetched_at: float | None = None
        self._attempted_at: float | None = None
        self._lock = asyncio.Lock()

    async def verify(self, token: str, *, typ: str | None = None) -> dict[str, Any]:
        """The token's claims; 401 for anything not signed by the identity server for our audience;
        503 when its keys cannot be had."""
        try:
            header = jwt.get_unverified_header(token)
        except jwt.InvalidTokenError:
            raise errors.AuthorizationError("The token is not valid.") from None
        kid = header.get("kid")
        wrong_type = typ is not None and header.get("typ") != typ
        if header.get("alg") != "RS256" or not isinstance(kid, str) or wrong_type:
            raise errors.AuthorizationError("The token is not valid.")
        key = await self._key(kid)
        try:
            return jwt.decode(token, key.key, algorithms=["RS256"], issuer=self.issuer,
                              audience=self.audience, leeway=TOKEN_LEEWAY_SECONDS,
                              options={"require": ["exp", "iat", "iss", "aud", "sub"]})
        except jwt.InvalidTokenError as exc:
            log.debug("token refused: %s", exc)
            raise errors.AuthorizationError("The token is not valid.") from None

    def _age(self) -> float:
        return float("inf") if self._fetched_at is None else self.clock() - self._fetched_at

    async def _key(self, kid: str) -> jwt.PyJWK:
        if kid in self._keys and self._age() < JWKS_MAX_AGE_SECONDS:
            return self._keys[kid]
        async with self._lock:  # one fetch at a time; the others then read what it found
            if kid not in self._keys or self._age() >= JWKS_MAX_AGE_SECONDS:
                wait = 0.0 if self._attempted_at is None else \
                    self._attempted_at + JWKS_REFETCH_SECONDS - self.clock()
                if wait <= 0:
                    await self._refresh()
                elif kid not in self._keys:
                    # Perhaps a key made since the last fetch: say "not now", not "invalid".
                    raise outage_error(self.outage, wait)
            if self._age() >= JWKS_STALE_SECONDS:
                self._keys = {}
                raise outage_error(self.outage, JWKS_REFETCH_SECONDS)
        if kid not in self._keys:
            raise errors.AuthorizationError("The token was signed by an unknown key.")
        return self._keys[kid]

    async def _refresh(self) -> None:
        self._attempted_at = self.clock()
        try:
            answer = await self.client.get("/.well-known/jwks.json", send_credential=False,
                                           outage=self.outage)
            if answer.status != 200 or not isinstance(answer.body, dict):
                raise ValueError(f"answered {answer.status}")
            keys = {key.key_id: key for key in jwt.PyJWKSet.from_dict(answer.body).keys
                    if key.key_id and key.public_key_use in (None, "sig")}
        except errors.HttpError:
            self._log_stale("the identity server did not answer")
            return
        except (ValueError, TypeError, KeyError, AttributeError, jwt.PyJWTError) as exc:
            self._log_stale(f"the JWKS is not usable ({exc})")
            return
        self._keys, self._fetched_at = keys, self.clock()

    def _log_stale(self, reason: str) -> None:
        log.warning("JWKS refresh failed: %s; %s", reason,
                    "keeping the cached keys" if self._fetched_at is not None else "no keys to verify with")


# -- authorization decisions ---------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """The identity server's answer: ``permitido``, ``motivo``, ``papel``, ``nivel`` on the wire."""

    allowed: bool
    reason: str
    role: str | None
    level: int | None
    support: str | None = None  # ``suporte``: the support session (sup_...) the answer is for


class Decisions:
    """``await decisions.decide(sub, tenant, product, role=None)``, each answer kept at most ``ttl`` s.

    ``session=`` (a session inside a support session) asks for that session, and that answer is
    never kept: a support decision must not outlive the support session (docs/operator.md)."""

    def __init__(self, client: ServiceClient, *, ttl: float = DECISION_TTL_SECONDS,
                 max_entries: int = DECISION_CACHE_ENTRIES, outage: Outage = errors.ServiceUnavailable,
                 clock: Callable[[], float] = time.monotonic):
        if not 0 < ttl <= DECISION_TTL_SECONDS:
            raise ValueError(f"a decision may be kept at most {DECISION_TTL_SECONDS:.0f} s")
        self.client = client
        self.ttl = ttl
        self.max_entries = max_entries
        self.outage = outage
        self.clock = clock
        self._cache: OrderedDict[tuple[str, str, str, str | None], tuple[float, Decision]] = OrderedDict()

    async def decide(self, sub: str, tenant: str, product: str, role: str | None = None, *,
                     session: str | None = None) -> Decision:
        key = (sub, tenant, product, role)
        cached = self._cache.get(key) if session is None else None
        if cached is not None and cached[0] > self.clock():
            self._cache.move_to_end(key)
            return cached[1]
        body = {"sub": sub, "tenant": tenant, "produto": product, **({"papel": role} if role else {}),
                **({"sessao": session} if session else {})}
        answer = await self.client.post("/v1/authz/decide", json=body, outage=self.outage)
        decision = _decision(answer.body) if answer.status == 200 else None
        if decision is None:
            log.error("identity answered a decision with %s %s; refused as an outage", answer.status,
                      answer.error_code)
            raise outage_error(self.outage)
        if session is not None:
            return decision
        self._cache[key] = (self.clock() + self.ttl, decision)
        self._cache.move_to_end(key)
        while len(self._cache) > self.max_entries:
            self._cache.popitem(last=False)
        return decision


def _decision(body: Any) -> Decision | None:
    """A decision only when the answer is exactly one: anything else is never read as an allow."""
    if not isinstance(body, dict) or not isinstance(body.get("permitido"), bool):
        return None
    reason, role, level = body.get("motivo"), body.get("papel"), body.get("nivel")
    support = body.get("suporte")
    if not isinstance(reason, str) or not isinstance(role, (str, type(None))) \
            or not isinstance(level, (int, type(None))) or isinstance(level, bool) \
            or not isinstance(support, (str, type(None))):
        return None
    return Decision(allowed=body["permitido"], reason=reason, role=role, level=level, support=support)


# -- one of each per app -------------------------------------------------------------------------

def decisions(app: Sanic) -> Decisions:
    """The app's decision client (one cache per process)."""
    found = getattr(app.ctx, "identity_decisions", None)
    if found is None:
        found = app.ctx.identity_decisions = Decisions(services(app).client("identity"))
    return found


def token_verifier(app: Sanic, audience: str) -> TokenVerifier:
    """The app's verifier for tokens issued to ``audience`` (an OAuth client id)."""
    verifiers = getattr(app.ctx, "identity_verifiers", None)
    if verifiers is None:
        verifiers = app.ctx.identity_verifiers = {}
    if audience not in verifiers:
        verifiers[audience] = TokenVerifier(services(app).client("identity"),
                                            issuer=app.ctx.settings.url_of("identity"), audience=audience)
    return verifiers[audience]
