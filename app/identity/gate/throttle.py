"""Throttles on login, the second step, recovery and account writes, kept in Redis (fixed windows).

A protected step *takes* one slot from each of its counters before doing any work. Taking is
one Lua script per counter, one round trip: compare with the limit, INCR, and give the counter
its TTL when it has none. Being atomic, parallel requests cannot overshoot: 1,000 wrong codes
sent at once on one ticket get 5 tries, and 995 answers 429 ``TooManyAttempts`` with
``Retry-After`` (the counter's remaining life). The script uses only commands of Redis 2.6, so
it behaves the same on the embedded Redis (6.2) and on Redis 7; it never relies on
``EXPIRE ... NX`` (7.0+). Every counter ends: one found without a TTL (left by an older
version) gets one on its next use.

Where only failures count (a correct password or code is never slowed down by its own
successes), :func:`failures` gives the slots back unless the step failed with one of the
counted errors. Where every attempt counts (each sends an e-mail or creates an account), the
slots are simply kept.

Counters of accounts are keyed by a hash of the e-mail (or the user id), so unknown e-mails are
throttled exactly like known ones. When Redis does not answer, a throttled step refuses with
503 ``ServiceUnavailable`` (``Retry-After``): a login or a code check never runs unthrottled.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import AsyncIterator

from typing import TYPE_CHECKING

import redis.asyncio as aioredis

from app.identity import errors

if TYPE_CHECKING:  # the gate reads requests; the steps and services never import Sanic
    from sanic import Request

log = logging.getLogger("herald.identity.throttle")
PREFIX = "identity:throttle"
OUTAGE_RETRY_SECONDS = 5
POOL_SIZE = 50
POOL_WAIT_SECONDS = 5


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds


LOGIN_IP = Limit("login:ip", 50, 600)
LOGIN_ACCOUNT = Limit("login:account", 10, 900)
TWO_FACTOR_IP = Limit("2fa:ip", 50, 600)
TWO_FACTOR_ACCOUNT = Limit("2fa:account", 5, 300)
# One login challenge (its ticket's nonce); the window outlives the longest ticket.
TWO_FACTOR_TICKET = Limit("2fa:ticket", 5, 600)
RECOVERY_WINDOW = 3600
RECOVERY_ACCOUNT = Limit("recovery:account", 5, 3600)
# E-mailed login codes issued (at login and on resend): every issue counts, it sends an e-mail.
EMAIL_CODE_ACCOUNT = Limit("2fa-email:account", 10, 3600)
# Account writes that send e-mail: every attempt counts. Per client address the ceiling is
# ACCOUNT_IP_LIMIT an hour (see :func:`signup_ip`, :func:`email_change_ip`).
EMAIL_CHANGE_ACCOUNT = Limit("email-change:account", 5, 3600)
# Verification e-mails to one address (sign-up and e-mail changes together): nobody can flood
# a stranger's mailbox by signing up or moving accounts to it over and over.
MAIL_TO_ADDRESS = Limit("mail-to:address", 5, 3600)
ACCOUNT_WRITE_WINDOW = 3600


def recovery_ip() -> Limit:
    """Recovery steps per client address an hour: RECOVERY_IP_LIMIT (20 by default)."""
    from kit.settings import get_settings

    return Limit("recovery:ip", get_settings().recovery_ip_limit, RECOVERY_WINDOW)


def email_code_ip() -> Limit:
    """E-mailed codes sent per client address an hour: EMAIL_CODE_IP_LIMIT (30 by default)."""
    from kit.settings import get_settings

    return Limit("2fa-email:ip", get_settings().email_code_ip_limit, 3600)


def signup_ip(per_hour: int) -> Limit:
    return Limit("signup:ip", per_hour, ACCOUNT_WRITE_WINDOW)


def email_change_ip(per_hour: int) -> Limit:
    return Limit("email-change:ip", per_hour, ACCOUNT_WRITE_WINDOW)


# The platform signs people in on their behalf (its /api surface): it names the person's address
# in FORWARDED_CLIENT and proves it is the platform with the service credential in SERVICE_PROOF
# (its Authorization header may carry the user's token instead). Without a valid proof the header
# is ignored, so nobody else can choose the address their attempts are counted under.
FORWARDED_CLIENT = "x-service-client-ip"
SERVICE_PROOF = "x-service-token"


def forwarded_client(request: Request) -> str | None:
    """The person's address the platform forwarded, when the service credential vouches for it."""
    named, proof = request.headers.get(FORWARDED_CLIENT), request.headers.get(SERVICE_PROOF)
    expected = request.app.ctx.settings.service_token
    if not named or not proof or not expected or not hmac.compare_digest(proof.encode(), expected.encode()):
        return None
    try:
        return str(ipaddress.ip_address(named.strip()))
    except ValueError:
        return None


def client_ip(request: Request) -> str:
    """The person's address the platform forwarded (see :data:`FORWARDED_CLIENT`), else the peer, or
    the address a trusted proxy forwarded (Sanic's PROXIES_COUNT / REAL_IP_HEADER)."""
    return forwarded_client(request) or request.remote_addr or request.ip or ""


def account_key(value: str) -> str:
    return hashlib.sha256(value.strip().casefold().encode()).hexdigest()[:32]


def key_of(limit: Limit, subject: str) -> str:
    return f"{PREFIX}:{limit.name}:{subject}"


# KEYS[1] the counter; ARGV[1] the limit, ARGV[2] the window in seconds.
# Returns {taken (1 or 0), count, ttl}.
_TAKE = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('TTL', KEYS[1])
local taken = 0
if count < tonumber(ARGV[1]) then
  count = redis.call('INCR', KEYS[1])
  taken = 1
end
if ttl < 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {taken, count, ttl}
"""

# Gives one slot back; a counter that reaches zero is removed (never left without a TTL).
_GIVE_BACK = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 1 then
  redis.call('DECR', KEYS[1])
elseif count == 1 then
  redis.call('DEL', KEYS[1])
end
return 0
"""

Pair = tuple[Limit, str]


def _unavailable(exc: BaseException) -> errors.ServiceUnavailable:
    log.warning("throttle counters unavailable, refusing the step: %r", exc)
    return errors.ServiceUnavailable("Sign-in is briefly unavailable (its attempt counters cannot be reached); "
                                     "try again shortly.", retry_after=OUTAGE_RETRY_SECONDS)


def _too_many(limit: Limit, ttl: int) -> errors.TooManyAttempts:
    wait = ttl if ttl > 0 else limit.window
    return errors.TooManyAttempts(retry_after=wait, headers={
        "X-RateLimit-Limit": str(limit.limit), "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": str(int(time.time()) + wait)})


def connect(url: str) -> aioredis.Redis:
    """The client of the counters: a bounded pool where a request *waits* for a connection
    (up to POOL_WAIT_SECONDS) instead of failing when many run at once, so a burst is counted
    rather than refused as an outage."""
    pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL_SIZE, timeout=POOL_WAIT_SECONDS,
                                                    socket_timeout=2, socket_connect_timeout=2)
    return aioredis.Redis.from_pool(pool)


class Counters:
    """The throttle counters of one Redis (``app.ctx.throttle``)."""

    def __init__(self, client: aioredis.Redis):
        self.client = client
        self._take = client.register_script(_TAKE)
        self._give_back = client.register_script(_GIVE_BACK)

    async def take(self, *pairs: Pair) -> list[str]:
        """Takes a slot of every counter, in order; the keys taken. A full counter raises
        TooManyAttempts (the slots already taken are given back); Redis away raises 503."""
        taken: list[str] = []
        try:
            for limit, subject in pairs:
                key = key_of(limit, subject)
                ok, _count, ttl = await self._take(keys=[key], args=[limit.limit, limit.window])
                if not int(ok):
                    await self.give_back(taken)
                    raise _too_many(limit, int(ttl))
                taken.append(key)
        except (aioredis.RedisError, OSError) as exc:
            await self.give_back(taken)
            raise _unavailable(exc) from None
        return taken

    async def give_back(self, keys: list[str]) -> None:
        """Best effort: a slot not given back only ends with its window."""
        for key in keys:
            try:
                await self._give_back(keys=[key])
            except (aioredis.RedisError, OSError) as exc:
                log.warning("throttle slot not given back (it ends with its window): %r", exc)
                return

    async def clear(self, *pairs: Pair) -> None:
        try:
            await self.client.delete(*(key_of(limit, subject) for limit, subject in pairs))
        except (aioredis.RedisError, OSError) as exc:
            log.warning("throttle counter not cleared (it ends with its window): %r", exc)


def counters(request: Request) -> Counters:
    return request.app.ctx.throttle


@dataclass(frozen=True)
class Caller:
    """Who attempts a throttled step, as plain values the surface read from the request: the
    counters, the client's address and its user agent (recorded on the sessions it opens)."""

    counters: Counters
    ip: str
    user_agent: str = ""


def caller(request: Request) -> Caller:
    return Caller(counters(request), client_ip(request), request.headers.get("user-agent") or "")


@asynccontextmanager
async def failures(store: Counters, *pairs: Pair,
                   counted: tuple[type[BaseException], ...]) -> AsyncIterator[None]:
    """Runs the step with a slot of each counter taken; only the ``counted`` errors keep them."""
    taken = await store.take(*pairs)
    try:
        yield
    except counted:
        raise
    except BaseException:
        await store.give_back(taken)
        raise
    await store.give_back(taken)


# The auth endpoints as a whole, per client address (spec "Limits": 1000 a minute), besides the
# failure throttles above. Counted on every request, successes included.
AUTH_PATHS = ("/v1/auth/", "/v1/2fa/", "/v1/passkeys/", "/authorize", "/token")
# The session hop: every dashboard request of every user checks its session here, from the
# platform's address. It is no sign-in attempt (a 256-bit token cannot be guessed), so counting it
# would cap the whole dashboard at AUTH_IP_LIMIT requests a minute.
NOT_COUNTED = frozenset({"/v1/auth/validate"})
AUTH_WINDOW = 60


async def auth_rate(request: Request) -> None:
    if not request.path.startswith(AUTH_PATHS) or request.path in NOT_COUNTED:
        return
    limit = request.app.ctx.settings.auth_ip_limit
    decision = await request.app.ctx.auth_limiter.hit(f"auth-ip:{client_ip(request)}", limit, AUTH_WINDOW)
    if not decision.allowed:
        raise errors.TooManyAttempts(retry_after=decision.retry_after, headers=decision.headers())
