"""The SMTP server's calls to the systems that own what it hands over (service credential, through
app/http/services.py's one client: timeouts, breaker): the platform (API keys, the internal send
route, the returns intake) and the mail system (mailboxes, received mail). It has no database.

Every failure of a callee (unreachable, timed out, 5xx, breaker open, a 401 of the credential) is
:data:`TRY_LATER`: the client keeps the message and tries again; nothing is lost."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, Mapping

import redis.asyncio as aioredis

from app.http import errors
from app.http.api_keys import KeyIntrospection
from app.http.ratelimit import RateLimiter
from app.http.services import ServiceClient, ServiceResponse, Services
from kit.settings import Settings

log = logging.getLogger("herald.smtp")

TRY_LATER = "451 4.3.0 Herald cannot take this right now; nothing was lost, please try again later"


class Refusal(Exception):
    """An SMTP reply that ends the command: ``str(refusal)`` is the whole reply line."""

    def __init__(self, reply: str) -> None:
        super().__init__(reply)
        self.reply = reply


class Upstream:
    """The process's clients: one per callee, the key introspection cache, the keys' rate windows."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.services = Services(settings)
        # KeyIntrospection (and services()) read ``app.ctx``: this process has no Sanic app, so it is
        # given the same two attributes a server's ctx carries.
        self._host = SimpleNamespace(ctx=SimpleNamespace(settings=settings, service_clients=self.services))
        self.keys = KeyIntrospection(self._host)  # type: ignore[arg-type]
        self.redis = aioredis.Redis.from_url(settings.require_redis_url(), socket_timeout=2,
                                             socket_connect_timeout=2)
        self.limiter = RateLimiter(self.redis)

    @property
    def platform(self) -> ServiceClient:
        return self.services.client("platform")

    @property
    def mail(self) -> ServiceClient:
        return self.services.client("mail")

    async def call(self, client: ServiceClient, method: str, path: str, *, json: Any = None,
                   params: Mapping[str, Any] | None = None) -> ServiceResponse:
        """A 2xx or 4xx answer; any failure of the callee raises :class:`Refusal` (:data:`TRY_LATER`)."""
        try:
            return await client.request(method, path, json=json, params=params, outage=errors.ServiceUnavailable)
        except errors.HttpError as error:  # logged where it was seen (app/http/services.py)
            log.warning("%s %s %s: %s, answered 451", client.system, method, path, error.code)
            raise Refusal(TRY_LATER) from None

    async def aclose(self) -> None:
        await self.services.aclose()
        await self.redis.aclose()
