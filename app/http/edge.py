"""Edge routes: the public hot path of the web, a beacon (``/collect``) or a published page, which
a route declares with ``ctx_edge=True``.

An edge route is open to anyone (it may declare no role and no API-key scope) and is answered by
the house's own bookkeeping only: one request step (the timer, the request id, the query allowlist)
and one response step (the X-Request-Id header, the metrics); a system's gates and other
middleware, which concern its authenticated routes, are not run for it. Sanic computes each route's
middleware once at start-up (``route.extra``); :func:`trim` then replaces the edge routes' chains.
"""

from __future__ import annotations

from collections import deque
from typing import Callable

from sanic import Sanic


def is_edge(route) -> bool:
    return bool(getattr(route.ctx, "edge", False))


def trim(app: Sanic, on_request: Callable, on_response: Callable) -> None:
    """Gives every edge route of ``app`` exactly ``on_request`` and ``on_response`` as middleware."""
    for route in app.router.routes:
        if not is_edge(route):
            continue
        if getattr(route.ctx, "role", None) is not None or getattr(route.ctx, "scope", None) is not None:
            raise RuntimeError(f"edge route {route.path!r} declares a role or a scope; an edge route is open")
        route.extra.request_middleware = deque([on_request])
        route.extra.response_middleware = deque([on_response])
