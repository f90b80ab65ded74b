"""What the response middleware takes from a keyed /v1 request: raw facts only, no parsing.

Capture runs on the request path, so it copies references and a few headers and nothing
else: no JSON parsing, no redaction, no database. The writer (:mod:`.buffer`) does the rest
after the answer has gone.

A request is captured when it was made with an account key (or, for the internal send route, on
behalf of one: an SMTP submission, ``request.ctx.request_log_as``): the gate's principal when the
gate accepted the key (every answer from then on: 2xx, 400, 403, 404, 409, 422, 429, ...), or
else a well-formed key the gate never looked up or refused (a revoked key, a key sent in
``X-Api-Key``, a path that matches no route). For those only the key's SHA-256 is kept; the
writer resolves it, and drops the record when it belongs to no account.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from sanic import HTTPResponse, Request

from app.http.request_id import request_id
from app.platform.api_key.principal import Principal
from models.platform.api_key import KEY_PATTERN, hash_key

_TRACEPARENT = re.compile(r"^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$")
_PARAM = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*)(?::[^>]*)?>")


@dataclass(slots=True)
class Captured:
    created_at: datetime
    duration_ms: float
    method: str
    path: str
    route: str | None
    known_query: tuple[str, ...]
    args: dict[str, list[str]] | None
    status: int
    principal: Principal | None
    key_digest: str | None
    idempotency_header: str | None
    request_id: str
    trace_id: str
    request_body: bytes | None
    response_body: bytes | None


@lru_cache(maxsize=512)
def route_pattern(sanic_path: str) -> str:
    """Sanic's ``v1/emails/<message_id:str>`` as the contract writes it: ``/v1/emails/{id}``.

    A parameter named ``id`` or ``*_id`` is written ``{id}``; any other keeps its name.
    """
    def name(match: re.Match) -> str:
        param = match.group(1)
        return "{id}" if param == "id" or param.endswith("_id") else "{" + param + "}"

    return "/" + _PARAM.sub(name, sanic_path.lstrip("/"))


def trace_id_of(request: Request) -> str:
    """The W3C trace id of the request's ``traceparent`` header, or a new one."""
    return trace_id(request.headers.get("traceparent"))


def trace_id(header: str | None) -> str:
    """The W3C trace id of a ``traceparent`` header, or a new one."""
    if header:
        match = _TRACEPARENT.match(header.strip().lower())
        if match and match.group(1) != "0" * 32:
            return match.group(1)
    # A trace id needs to be unique, not secret: Python's own generator, no system call (os.urandom
    # would hand the GIL to another thread on the request path; the module's generator is seeded
    # from os.urandom and again in a forked child); never the all-zero invalid id.
    return f"{random.getrandbits(128) or 1:032x}"


def presented_key(request: Request) -> str | None:
    """A well-formed API key the request carries, wherever it was put."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, token = header.strip().partition(" ")
        token = token.strip()
        if scheme.lower() == "bearer" and KEY_PATTERN.match(token):
            return token
    for candidate in (request.headers.get("x-api-key"), request.args.get("api_key")):
        if candidate and KEY_PATTERN.match(candidate.strip()):
            return candidate.strip()
    return None


def capture(request: Request, response: HTTPResponse) -> Captured | None:
    # A route that logs a call on behalf of a key names the method and path the row shows (the SMTP
    # server's submissions: app/platform/message/internal.py).
    logged_as: tuple[str, str] | None = getattr(request.ctx, "request_log_as", None)
    if logged_as is None and not request.path.startswith("/v1/"):
        return None
    principal: Principal | None = getattr(request.ctx, "principal", None)
    digest = None
    if principal is None:
        key = presented_key(request)
        if key is None:
            return None
        digest = hash_key(key)
    started = getattr(request.ctx, "started_at", None)
    elapsed = time.perf_counter() - started if started is not None else 0.0
    route = request.route
    known = tuple(getattr(route.ctx, "query", ())) if route is not None else ()
    args = None
    if known and request.query_string:
        args = {name: request.args.getlist(name) for name in known if name in request.args}
    return Captured(
        created_at=datetime.now(timezone.utc) - timedelta(seconds=elapsed),
        duration_ms=round(elapsed * 1000, 3),
        method=logged_as[0] if logged_as else request.method,
        path=logged_as[1] if logged_as else request.path,
        route=logged_as[1] if logged_as else route_pattern(route.path) if route is not None else None,
        known_query=known,
        args=args,
        status=response.status,
        principal=principal,
        key_digest=digest,
        idempotency_header=request.headers.get("idempotency-key"),
        request_id=request_id(request),
        trace_id=trace_id_of(request),
        request_body=request.body or None,
        response_body=getattr(response, "body", None) or None,
    )
