"""Health and meta routes shared by every system: /, /healthz, /readyz, /version, /metrics.

``GET /`` is the service identity; a system that serves something else at ``/`` for some requests
(the runtime: a host's home page) passes a :data:`Home`, asked first, whose None means "the
identity".

Readiness differs per system (spec section B), so each app picks a :class:`Readiness`:

- ``degrade_only`` (platform): always 200, ``status`` ``ready`` or ``degraded``, one entry per
  dependency under ``checks`` (the broker included, never a 503 for it);
- ``database_gate`` (identity): 200 when its database answers, else 503 ``NotReady``;
- ``strict`` (crm, pages, runtime): 503 ``starting`` until boot ends, then probes cached for
  one second: 200 ``ready`` or 503 ``degraded`` naming each failing dependency ``unavailable``.

Probes never show a driver's message: a dependency is ``ok`` or ``unavailable``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.metrics import exposition
from app.http.openapi import STRING, Schema, answers, described, reply_of
from app.http.responses import reply

log = logging.getLogger("herald.health")

Home = Callable[[Request], Awaitable["HTTPResponse | None"]]

PROBE_TIMEOUT = 1.0
CACHE_SECONDS = 1.0

Probe = Callable[[Request], Awaitable[None]]


async def probe_database(request: Request) -> None:
    from tortoise import connections

    await connections.get(request.app.config.HERALD_SYSTEM).execute_query("SELECT 1")


async def probe_redis(request: Request) -> None:
    await request.app.ctx.redis.ping()


async def probe_broker(request: Request) -> None:
    # The broker is Dramatiq on Redis: reachable when its Redis answers and accepts commands.
    await request.app.ctx.redis.exists("dramatiq:default")


async def run_probes(request: Request, probes: dict[str, Probe]) -> dict[str, str]:
    async def one(name: str, probe: Probe) -> tuple[str, str]:
        try:
            await asyncio.wait_for(probe(request), PROBE_TIMEOUT)
            return name, "ok"
        except Exception as exc:  # noqa: BLE001 - any failure means unavailable; the reason stays in the log
            log.warning("readiness probe %s failed: %r", name, exc)
            return name, "unavailable"

    results = await asyncio.gather(*(one(name, probe) for name, probe in probes.items()))
    return dict(results)


@dataclass
class Readiness:
    kind: str  # "degrade_only" | "database_gate" | "strict"
    probes: dict[str, Probe]
    _cached_at: float = field(default=0.0, repr=False)
    _cached: dict[str, str] | None = field(default=None, repr=False)

    async def checks(self, request: Request) -> dict[str, str]:
        if self.kind != "strict":
            return await run_probes(request, self.probes)
        now = time.monotonic()
        if self._cached is None or now - self._cached_at >= CACHE_SECONDS:
            self._cached = await run_probes(request, self.probes)
            self._cached_at = now
        return self._cached

    async def answer(self, request: Request) -> HTTPResponse:
        if self.kind == "strict" and not getattr(request.app.ctx, "booted", False):
            return reply(request, {"status": "starting", "checks": {}}, status=503, headers={"Retry-After": "1"})
        checks = await self.checks(request)
        healthy = all(state == "ok" for state in checks.values())
        if self.kind == "database_gate" and not healthy:
            raise errors.NotReady("The identity database does not answer.", retry_after=1)
        status = "ready" if healthy else "degraded"
        code = 503 if self.kind == "strict" and not healthy else 200
        return reply(request, {"status": status, "checks": checks}, status=code)


def degrade_only() -> Readiness:
    return Readiness("degrade_only", {"database": probe_database, "redis": probe_redis, "broker": probe_broker})


def database_gate() -> Readiness:
    return Readiness("database_gate", {"database": probe_database})


def strict() -> Readiness:
    return Readiness("strict", {"database": probe_database, "redis": probe_redis})


_SERVICE_NAME = described(STRING, "The system's service name: herald-platform, herald-identity, herald-mail, ...")
SERVICE = reply_of(
    service=_SERVICE_NAME,
    title=described(STRING, "The system's human title."),
    version=described(STRING, "The version of Herald this system runs."))
HEALTH = reply_of(status=described({"const": "ok"}, "Always ok: the process answers."))
READINESS = reply_of(
    status=described({"enum": ["starting", "ready", "degraded"]},
                     "starting (boot not finished), ready (every dependency answers) or degraded (one does not)."),
    checks=described({"type": "object", "additionalProperties": {"enum": ["ok", "unavailable"]}},
                     "Each dependency probed (database, redis, broker) and its state: ok or unavailable."))
VERSION = reply_of(
    service=_SERVICE_NAME,
    version=described(STRING, "The version of Herald this system runs."),
    commit=described(STRING, "The commit this build was made from."))


def meta_blueprint(readiness: Readiness, home: Home | None = None) -> Blueprint:
    bp = Blueprint("meta")

    @bp.get("/", name="identity", ctx_responses=answers({200: SERVICE}))
    async def service_identity(request: Request) -> HTTPResponse:
        """Which Herald system answers here, its title and version (a system with a home page shows it)."""
        if home is not None:
            answer = await home(request)
            if answer is not None:
                return answer
        settings = request.app.ctx.settings
        return reply(request, {
            "service": f"herald-{request.app.config.HERALD_SYSTEM}",
            "title": request.app.ctx.system.title,
            "version": settings.version,
        })

    @bp.get("/healthz", ctx_responses=answers({200: HEALTH}))
    async def healthz(request: Request) -> HTTPResponse:
        """Liveness: the process answers; nothing it depends on is asked."""
        return reply(request, {"status": "ok"})

    # 503 is NotReady's envelope on the identity server, the readiness object on crm, pages and runtime.
    @bp.get("/readyz", ctx_responses=answers({200: READINESS, 503: {"anyOf": [READINESS, {"type": "object"}]}}))
    async def readyz(request: Request) -> HTTPResponse:
        """Readiness: whether the services this system depends on (its database, and Redis where it needs it) answer."""
        return await readiness.answer(request)

    @bp.get("/version", ctx_responses=answers({200: VERSION}))
    async def version(request: Request) -> HTTPResponse:
        """The system's version and the commit it was built from."""
        settings = request.app.ctx.settings
        return reply(request, {
            "service": f"herald-{request.app.config.HERALD_SYSTEM}",
            "version": settings.version,
            "commit": settings.commit,
        })

    @bp.get("/metrics", ctx_responses=answers({200: Schema(STRING, "text/plain")}))
    async def metrics(request: Request) -> HTTPResponse:
        """Prometheus metrics of this process, in the text exposition format."""
        return exposition()

    return bp
