"""The runtime's edge (collection, published pages, public form posts) runs with the house's
bookkeeping only, and its gate is blueprint middleware of the /v1 surfaces (app/runtime/server.py):
Sanic's own documented middleware, nothing of ours rewrites a route's chain."""

from __future__ import annotations

import pytest
from sanic import Blueprint, Sanic
from sanic.response import empty

from app.runtime import gate
from app.runtime.server import V1, build

EDGE_PATHS = {"collect", "replay", "pixel.js", "pixel/rrweb.min.js", "<slug:slug>", "r/<slug:slug>", "robots.txt",
              "sitemap.xml", "", "_preview/<token:str>"}


@pytest.fixture(scope="module")
def runtime_app() -> Sanic:
    app = build()
    Sanic._app_registry.pop(app.name, None)  # another test may build the same app
    app.router.finalize()
    app.finalize_middleware()
    return app


def chains(route) -> tuple[list[str], list[str]]:
    return ([m.func.__name__ for m in route.extra.request_middleware],
            [m.func.__name__ for m in route.extra.response_middleware])


def test_the_edge_gets_only_the_house_bookkeeping(runtime_app):
    edge = [route for route in runtime_app.router.routes if route.path in EDGE_PATHS]
    assert {route.path for route in edge} == EDGE_PATHS
    for route in edge:
        assert chains(route) == (["begin", "allowlist"], ["finish"]), route.path


def test_every_v1_route_runs_the_gate_between_the_bookkeeping_and_the_allowlist(runtime_app):
    v1 = [route for route in runtime_app.router.routes
          if route.path.startswith("v1/") and ".diagnostics." not in route.name]
    assert len(v1) > 10
    for route in v1:
        assert chains(route)[0] == ["begin", "gate", "allowlist"], route.path


def test_a_v1_route_outside_the_gated_surfaces_stops_the_build():
    app = Sanic("herald_test_ungated")
    stray = Blueprint("stray", url_prefix="/v1")

    @stray.get("/open")
    async def open_route(request):
        return empty()

    app.blueprint([V1, stray])
    try:
        with pytest.raises(RuntimeError, match="outside the runtime's gated /v1 surfaces"):
            gate.v1.require_gated(app, V1)
    finally:
        Sanic._app_registry.pop(app.name, None)
