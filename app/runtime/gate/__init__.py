"""The runtime's gate (docs/architecture.md, "The shape"): blueprint middleware of the surfaces it
guards, so the edge (collection, published pages) and the public form posts never run it.

- v1.py: ``/v1`` for people acting in an account (a session's role, product ``analytics``);
- keys.py: the API key of the keyed ``/v1`` routes (form submissions, leads), which the handler
  checks and whose answers carry the key's X-RateLimit-*;
- ``/internal/v1``: the service credential (app/http/services.py), before every handler.

Blueprint middleware must be attached before an app registers the blueprints, so server.py names
its guarded surfaces once at import (:func:`guard`) and then installs the gate on the app it builds
with one call, :func:`install`, like every system.
"""

from __future__ import annotations

from collections.abc import Iterable

from sanic import Blueprint, Request, Sanic
from sanic.blueprint_group import BlueprintGroup

from app.http import services, support_access
from app.http.services import require_service_credential
from app.runtime.gate import keys, v1


async def service_only(request: Request) -> None:
    require_service_credential(request)


def guard(gated: BlueprintGroup, keyed: Blueprint, internal: Iterable[Blueprint]) -> None:
    """Attaches the gate to the surfaces it guards (once, at import of server.py)."""
    gated.middleware(v1.gate, "request", priority=50)
    # A support session's reads are made on the gated /v1 only: the public edge (/collect, pages) keeps
    # the house's bookkeeping alone (tests/runtime/test_edge.py).
    gated.middleware(support_access.note_support_read_status, "response", priority=10)
    keyed.middleware(keys.rate_headers, "response", priority=90)
    for blueprint in internal:
        blueprint.middleware(service_only, "request")


def install(app: Sanic, gated: BlueprintGroup) -> None:
    """Refuses an app with a /v1 route outside the guarded surfaces; opens the clients the gate calls."""
    v1.require_gated(app, gated)
    services.install(app)
