"""Throttles on login, the second step and recovery, kept in Redis (fixed windows).

Failures are counted, not attempts: a person who types the right password is never slowed
down by their own successes. Each protected step checks two counters before doing any work
(per client IP and per account) and raises 429 ``TooManyAttempts`` with ``Retry-After`` when
either is full. Accounts are keyed by a hash of the e-mail (or the user id), so unknown e-mails
are throttled exactly like known ones. When Redis does not answer, the throttle is skipped and
logged (availability over a missing counter); bcrypt's cost still bounds guessing.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass

from sanic import Request

from app.identity import errors

log = logging.getLogger("herald.identity.throttle")
PREFIX = "identity:throttle"


@dataclass(frozen=True)
class Limit:
    name: str
    limit: int
    window: int  # seconds


LOGIN_IP = Limit("login:ip", 50, 600)
LOGIN_ACCOUNT = Limit("login:account", 10, 900)
TWO_FACTOR_IP = Limit("2fa:ip", 50, 600)
TWO_FACTOR_ACCOUNT = Limit("2fa:account", 5, 300)
RECOVERY_IP = Limit("recovery:ip", 20, 3600)
# E-mailed login codes issued (at login and on resend): every issue counts, it sends an e-mail.
EMAIL_CODE_IP = Limit("2fa-email:ip", 30, 3600)
EMAIL_CODE_ACCOUNT = Limit("2fa-email:account", 10, 3600)
RECOVERY_ACCOUNT = Limit("recovery:account", 5, 3600)


def client_ip(request: Request) -> str:
    """The peer, or the address a trusted proxy forwarded (Sanic's PROXIES_COUNT / REAL_IP_HEADER)."""
    return request.remote_addr or request.ip or ""


def account_key(value: str) -> str:
    return hashlib.sha256(value.strip().casefold().encode()).hexdigest()[:32]


def _key(limit: Limit, subject: str) -> str:
    return f"{PREFIX}:{limit.name}:{subject}"


async def check(request: Request, *pairs: tuple[Limit, str]) -> None:
    redis = request.app.ctx.redis
    try:
        for limit, subject in pairs:
            key = _key(limit, subject)
            count = await redis.get(key)
            if count is not None and int(count) >= limit.limit:
                ttl = await redis.ttl(key)
                wait = ttl if ttl and ttl > 0 else limit.window
                raise errors.TooManyAttempts(retry_after=wait, headers={
                    "X-RateLimit-Limit": str(limit.limit), "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": str(int(time.time()) + wait)})
    except errors.TooManyAttempts:
        raise
    except Exception as exc:  # noqa: BLE001 - Redis down: do not block logins
        log.warning("throttle check skipped: %r", exc)


async def fail(request: Request, *pairs: tuple[Limit, str]) -> None:
    redis = request.app.ctx.redis
    try:
        async with redis.pipeline(transaction=False) as pipe:
            for limit, subject in pairs:
                key = _key(limit, subject)
                pipe.incr(key)
                pipe.expire(key, limit.window, nx=True)
            await pipe.execute()
    except Exception as exc:  # noqa: BLE001
        log.warning("throttle count skipped: %r", exc)


async def reset(request: Request, *pairs: tuple[Limit, str]) -> None:
    try:
        await request.app.ctx.redis.delete(*(_key(limit, subject) for limit, subject in pairs))
    except Exception as exc:  # noqa: BLE001
        log.warning("throttle reset skipped: %r", exc)


# The auth endpoints as a whole, per client address (spec "Limits": 1000 a minute), besides the
# failure throttles above. Counted on every request, successes included.
AUTH_PATHS = ("/v1/auth/", "/v1/2fa/", "/v1/passkeys/", "/authorize", "/token")
AUTH_WINDOW = 60


async def auth_rate(request: Request) -> None:
    if not request.path.startswith(AUTH_PATHS):
        return
    limit = request.app.ctx.settings.auth_ip_limit
    decision = await request.app.ctx.auth_limiter.hit(f"auth-ip:{client_ip(request)}", limit, AUTH_WINDOW)
    if not decision.allowed:
        raise errors.TooManyAttempts(retry_after=decision.retry_after, headers=decision.headers())
