"""One access line per answered request, in place of Sanic's own (which prints the full URL, query
string and all: an ``api_key`` or a signed token in a query would reach the log).

The line names the method, the path without its query string, the route pattern, the status, the
duration and, through the request's logging context (kit/logs.py), the request id and the account.
Never a header, a query or a body: nothing a credential travels in; and a path segment that is a
credential itself (an invitation's token) is written as its parameter's name.
"""

from __future__ import annotations

import logging
import time

from sanic import HTTPResponse, Request

log = logging.getLogger("herald.access")

# Probes answered many times a minute (a load balancer, `herald up`, a container's health check): at
# DEBUG, so an idle stack's log is not made of them.
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})

# Path parameters that are secrets (``/api/invitations/<token:str>/preview``): logged as ``{token}``.
SECRET_PARAMETERS = frozenset({"token"})


def _path(request: Request, route: str | None) -> str:
    path = request.path  # the path alone: Sanic keeps the query string apart (request.query_string)
    if route is None or not SECRET_PARAMETERS.intersection(request.match_info):
        return path
    segments, patterns = path.split("/"), route.split("/")
    if len(segments) != len(patterns):  # a parameter spanning segments: the pattern says enough
        return route
    for index, pattern in enumerate(patterns):
        name = pattern[1:-1].split(":", 1)[0] if pattern.startswith("<") and pattern.endswith(">") else None
        if name in SECRET_PARAMETERS:
            segments[index] = "{" + name + "}"
    return "/".join(segments)


def write(request: Request, response: HTTPResponse) -> None:
    if not log.isEnabledFor(logging.INFO):  # LOG_LEVEL=WARNING: nothing made per request, not even the path
        return
    level = logging.DEBUG if request.path in PROBES and response.status < 400 else logging.INFO
    if not log.isEnabledFor(level):
        return
    started = getattr(request.ctx, "started_at", None)
    duration_ms = round((time.perf_counter() - started) * 1000, 2) if started is not None else None
    route = "/" + request.route.path.lstrip("/") if request.route is not None else None
    path = _path(request, route)
    log.log(level, "%s %s %s %sms", request.method, path, response.status, duration_ms,
             extra={"fields": {"method": request.method, "path": path, "route": route,
                               "status": response.status, "duration_ms": duration_ms}})
