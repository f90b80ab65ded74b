"""Edge routes (app/http/edge.py): only the house's bookkeeping runs for them, and they are open."""

from __future__ import annotations

import pytest
from sanic import Sanic
from sanic.response import empty

from app.http import edge


def _app(name: str, **ctx) -> Sanic:
    app = Sanic(name)

    @app.on_request
    async def gate(request):  # a system's gate: not for edge routes
        raise AssertionError("the gate ran")

    @app.get("/beacon", **ctx)
    async def beacon(request):
        return empty()

    @app.get("/private")
    async def private(request):
        return empty()

    app.router.finalize()
    app.finalize_middleware()
    return app


def test_an_edge_route_gets_exactly_the_house_steps_and_others_keep_theirs():
    app = _app("herald_test_edge", ctx_edge=True)
    house_request, house_response = (lambda request: None), (lambda request, response: None)
    edge.trim(app, house_request, house_response)
    routes = {route.path: route for route in app.router.routes}
    assert list(routes["beacon"].extra.request_middleware) == [house_request]
    assert list(routes["beacon"].extra.response_middleware) == [house_response]
    assert [m.func.__name__ for m in routes["private"].extra.request_middleware] == ["gate"]


def test_an_edge_route_that_declares_a_role_is_refused_at_start():
    app = _app("herald_test_edge_role", ctx_edge=True, ctx_role="admin")
    with pytest.raises(RuntimeError, match="declares a role or a scope"):
        edge.trim(app, lambda request: None, lambda request, response: None)
