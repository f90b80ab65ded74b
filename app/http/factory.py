"""The one way a Herald HTTP system is built: ``build_app(system, blueprints, readiness)``.

Every system gets the same plumbing: request ids, the error envelope, query allowlists,
metrics (the only middleware of an app's public edge: a system's own gates are blueprint middleware of
the surfaces they guard), health and meta routes, its OpenAPI document and reference
(app/http/openapi.py), its own Tortoise connection and a Redis client; the path-parameter types of
ids (``<message_id:id>``); and HEAD on every GET route (RFC 9110 9.3.2), which Sanic does not add by
itself. Every request goes through Sanic's own parser, router and middleware: no code of Herald's
parses HTTP.
"""

from __future__ import annotations

import gc
import re
from types import SimpleNamespace
from typing import Iterable

import redis.asyncio as aioredis
from sanic import Blueprint, HTTPResponse, Request, Sanic
from sanic.router import Router
from tortoise.contrib.sanic import register_tortoise

from app.http import access_log, errors, header_values, metrics, wakeup
from app.http.envelope import handle_exception
from app.http.health import Home, Readiness, meta_blueprint
from app.http.openapi import PATH_TYPES, openapi_blueprint
from app.http.query import check_query
from app.http.request_id import HEADER, request_id
from kit.errors import exit_on_config_error
from kit import logs
from kit.observability import init_sentry
from kit.settings import get_settings
from kit.systems import System
from models import tortoise_config

MiB = 1024 * 1024


def _matching(label: str, pattern: str):
    """The cast of a path-parameter type: the router tries the cast, not the pattern, for a
    segment, so the cast is what refuses a value (ValueError: no route, 404). The router's
    generated code calls a cast by its ``__name__``, so each type's has its own."""
    compiled = re.compile(pattern)

    def cast(value: str) -> str:
        if not compiled.fullmatch(value):  # fullmatch: "$" alone would let a trailing newline through
            raise ValueError(value)
        return value

    cast.__name__ = cast.__qualname__ = f"path_type_{label}"
    return cast


class HeadRouter(Router):
    """Every route that answers GET answers HEAD as well: the same handler, gate and headers, the
    body left out by Sanic's HTTP layer (with the GET's Content-Length). Done where routes are
    added, so a blueprint, a system's own route and the meta routes all get it."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for label, pattern in PATH_TYPES.items():  # <message_id:id>: see app/http/openapi.py
            self.register_pattern(label, _matching(label, pattern), pattern)

    def add(self, uri, methods, handler, *args, **kwargs):  # type: ignore[override]
        methods = set(methods or ())
        if "GET" in methods:
            methods.add("HEAD")
        return super().add(uri, methods, handler, *args, **kwargs)


def begin(request: Request) -> None:
    metrics.start_timer(request)
    request_id(request)


def allowlist(request: Request) -> None:
    check_query(request)
    if "%00" in request.query_string:  # PostgreSQL's text cannot hold a NUL: refused before any query
        raise errors.ValidationError("A query parameter holds a NUL character (%00).",
                                     details={"query": "holds a NUL character"})


def finish(request: Request, response: HTTPResponse) -> None:
    response.headers[HEADER] = request_id(request)
    metrics.observe(request, response)
    access_log.write(request, response)


def _route_body_limits(app: Sanic, default: int) -> None:
    """Every route reads at most ``default`` bytes of body, a route declaring ``ctx_max_body`` (an
    e-mail send with its attachments) that many: set once the route is known, before the body is
    read, so a larger Content-Length is still refused at its head."""

    @app.signal("http.routing.after")
    async def limit_body(request: Request, route, kwargs, handler) -> None:
        if request.stream is not None:
            request.stream.request_max_size = getattr(route.ctx, "max_body", None) or default


def build_app(
    system: System,
    blueprints: Iterable[Blueprint] = (),
    *,
    readiness: Readiness,
    home: Home | None = None,
    envelope: str = "pascal",
    max_body_bytes: int = 2 * MiB,
    largest_body_bytes: int | None = None,
) -> Sanic:
    with exit_on_config_error():
        settings = get_settings()
        settings.require_secret_key()
        settings.require_redis_url()
        # A system without a database of its own (the console) opens no connection and has no outbox.
        orm_config = tortoise_config(settings, [system.name]) if system.database else None

    logs.setup(settings, role="serve", system=system.name)
    header_values.install()
    if settings.sentry_dsn:
        from sentry_sdk.integrations.sanic import SanicIntegration

        init_sentry(settings, SanicIntegration())

    context = SimpleNamespace(settings=settings, system=system, booted=False)
    # configure_logging=False: Sanic's own configuration would give its loggers handlers of their own
    # beside the root's (every line twice); kit/logs.py has made them propagate to the one handler.
    app = Sanic(f"herald_{system.name}", ctx=context, router=HeadRouter(), configure_logging=False)
    app.config.HERALD_SYSTEM = system.name
    app.config.ERROR_ENVELOPE = envelope
    app.config.REQUEST_MAX_SIZE = max(max_body_bytes, largest_body_bytes or 0)
    if largest_body_bytes:
        _route_body_limits(app, max_body_bytes)
    app.config.FALLBACK_ERROR_FORMAT = "json"
    app.config.ACCESS_LOG = False  # Sanic's line carries the query string: app/http/access_log.py writes ours
    app.config.KEEP_ALIVE_TIMEOUT = 75

    if orm_config is not None:
        register_tortoise(app, config=orm_config)

    @app.before_server_start
    async def open_redis(app: Sanic) -> None:
        # A bounded pool: under a flood requests wait (at most 2 s) for one of 64 connections per
        # process instead of opening one each, which a shared Redis would refuse past maxclients.
        app.ctx.redis = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=64, timeout=2, socket_timeout=2,
            socket_connect_timeout=2, health_check_interval=30))

    if system.database:  # after open_redis: every system with a database has an outbox, app.ctx.wakeup nudges its relay
        wakeup.install(app)

    @app.after_server_start
    async def mark_booted(app: Sanic) -> None:
        app.ctx.booted = True
        # What boot allocated (modules, routes, models, pools) lives as long as the process: moved
        # out of the collector's generations, a full collection walks only what requests allocate.
        gc.freeze()

    @app.after_server_stop
    async def close_redis(app: Sanic) -> None:
        await app.ctx.redis.aclose()

    # Request middleware runs by priority (highest first): bookkeeping, then each system's own
    # gates (authentication sits at 50), then the query allowlist. Plain functions: nothing here
    # waits, and Sanic calls them without making a coroutine each time. These three are the only
    # middleware of every route; a system adds its gates to its surfaces (app-wide, or as the
    # blueprint middleware of the surfaces it guards, app/runtime/server.py), never to the edge.
    app.on_request(begin, priority=100)
    app.on_request(allowlist, priority=10)
    app.on_response(finish, priority=100)

    app.error_handler.add(Exception, handle_exception)
    app.blueprint(meta_blueprint(readiness, home))
    app.blueprint(openapi_blueprint())  # GET /openapi.json and /docs, described from the routes above and below
    for blueprint in blueprints:
        app.blueprint(blueprint)
    if settings.env == "test":
        from app.http.diagnostics import diagnostics_blueprint

        app.blueprint(diagnostics_blueprint())
    return app
