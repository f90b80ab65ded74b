"""API keys of the platform, for the systems that accept them without owning them (pages, later the
runtime): the key is introspected through the platform's ``POST /internal/v1/api-keys/introspect``
(service credential) and the answer kept in this process for at most :data:`CACHE_SECONDS`, so a
revoked key or a suspended account stops working within that bound.

The cache is per process and bounded (:data:`CACHE_ENTRIES`; when full it is emptied, never grown),
keyed by the key's SHA-256, never the key. The platform unreachable, timing out or failing: 503
``ServiceUnavailable`` with ``Retry-After`` (DESIGN.md, "How the systems call each other"), never an
allow and never a 401 for a key that may well be valid.

    info = await introspection(app).lookup(key)     # KeyInfo, or None for no such key
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from typing import Callable

from sanic import Sanic

from app.http import errors
from app.http.services import services

CACHE_SECONDS = 1.0  # a revoked key or a suspended account is refused elsewhere within 2 s, with room
CACHE_ENTRIES = 10_000
INTROSPECT_PATH = "/internal/v1/api-keys/introspect"
# The platform's key format (contract, "API key"): a prefix, then 48 hex characters.
KEY_FORMAT = re.compile(r"(sk_master_|sk_live_|sk_test_|pk_live_)[0-9a-f]{48}")


@dataclass(frozen=True)
class KeyInfo:
    key_id: str
    tenant_id: str
    tenant_active: bool
    scopes: frozenset[str]  # the scopes the key may use (the platform applied its rules)
    publishable: bool
    mode: str
    rate_limit: tuple[int, int] | None = None  # (requests, window seconds): the key's ceiling


def looks_like_key(token: str) -> bool:
    return bool(KEY_FORMAT.fullmatch(token))


class KeyIntrospection:
    def __init__(self, app: Sanic, *, clock: Callable[[], float] = time.monotonic,
                 ttl: float = CACHE_SECONDS, entries: int = CACHE_ENTRIES) -> None:
        self._app = app
        self._clock = clock
        self._ttl = min(ttl, CACHE_SECONDS)
        self._entries = entries
        self._cache: dict[str, tuple[float, KeyInfo | None]] = {}

    async def lookup(self, key: str) -> KeyInfo | None:
        """The key's tenant and scopes; None when the platform knows no live key by that value."""
        digest = hashlib.sha256(key.encode()).hexdigest()
        now = self._clock()
        cached = self._cache.get(digest)
        if cached is not None and cached[0] > now:
            return cached[1]
        answer = await services(self._app).client("platform").post(
            INTROSPECT_PATH, json={"Key": key}, outage=errors.ServiceUnavailable)
        if answer.status == 404:
            info = None
        elif answer.ok and isinstance(answer.body, dict) and isinstance(answer.body.get("Key"), dict):
            info = _info(answer.body["Key"])
        else:  # a 4xx other than 404 is our own mistake or a configuration error: never an allow
            raise errors.ServiceUnavailable("API keys cannot be checked right now; try again shortly.",
                                            retry_after=1)
        if len(self._cache) >= self._entries:
            self._cache.clear()
        self._cache[digest] = (now + self._ttl, info)
        return info


def _info(body: dict) -> KeyInfo | None:
    if body.get("Revoked"):
        return None
    ceiling = body.get("RateLimit")
    rate_limit = (int(ceiling["Limit"]), int(ceiling["WindowSeconds"])) if isinstance(ceiling, dict) else None
    return KeyInfo(key_id=str(body["Id"]), tenant_id=str(body["TenantId"]),
                   tenant_active=body.get("TenantStatus") == "active",
                   scopes=frozenset(body.get("Scopes") or ()), publishable=bool(body.get("Publishable")),
                   mode=str(body.get("Mode") or ""), rate_limit=rate_limit)


def introspection(app: Sanic) -> KeyIntrospection:
    """The app's introspection client (made on first use; one per process)."""
    found = getattr(app.ctx, "key_introspection", None)
    if found is None:
        found = app.ctx.key_introspection = KeyIntrospection(app)
    return found
