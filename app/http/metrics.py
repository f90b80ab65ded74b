"""Prometheus metrics of an HTTP process: requests and latency by route and status.

With several Sanic workers, set PROMETHEUS_MULTIPROC_DIR so /metrics aggregates them.
"""

from __future__ import annotations

import os
import time

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client import multiprocess
from sanic import HTTPResponse, Request

REQUESTS = Counter(
    "herald_http_requests_total", "HTTP requests answered", ["system", "method", "route", "status"]
)
LATENCY = Histogram(
    "herald_http_request_duration_seconds",
    "Time from request to response",
    ["system", "method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)



def start_timer(request: Request) -> None:
    request.ctx.started_at = time.perf_counter()


# The labelled children, by (system, method, route name, status): ``labels()`` builds and locks on
# every call, and these are looked up on every request. Bounded like the labels themselves.
_children: dict[tuple, tuple] = {}


def _series(request: Request, status: int) -> tuple:
    key = (request.app.config.HERALD_SYSTEM, request.method, request.route.name if request.route else None, status)
    series = _children.get(key)
    if series is None:
        # Label by route pattern, never by raw path, so label cardinality stays bounded.
        route = "/" + request.route.path.lstrip("/") if request.route is not None else "unmatched"
        series = _children[key] = (REQUESTS.labels(key[0], key[1], route, str(status)),
                                   LATENCY.labels(key[0], key[1], route))
    return series


def observe(request: Request, response: HTTPResponse) -> None:
    started = getattr(request.ctx, "started_at", None)
    count, latency = _series(request, response.status)
    count.inc()
    if started is not None:
        latency.observe(time.perf_counter() - started)


def exposition() -> HTTPResponse:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        data = generate_latest(registry)
    else:
        data = generate_latest()
    return HTTPResponse(data, content_type=CONTENT_TYPE_LATEST)
