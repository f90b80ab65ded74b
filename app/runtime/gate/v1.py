"""The runtime's ``/v1`` gate for people acting in an account (pixels, analytics, replay).

Blueprint middleware of the /v1 surfaces only (app/runtime/server.py ``V1``, guarded through
app/runtime/gate/__init__.py): the edge (collection, published pages) and the public form posts
never run it. A route declares the least role it needs where it is defined, ``ctx_role="leitor"`` (reads) or ``ctx_role="admin"`` (writes), with ``ctx_auth="session"``;
the gate then requires a live identity session allowed to use the product ``analytics`` in the
account named by ``X-Service-Tenant`` with that role (app/http/tenant_access.py: 401 no session,
404 not yours, 403 a lower role, 503 when the identity server cannot say). A write that carries the
session cookie and no Bearer must come from the dashboard's Origin (else 403), as on the CRM.

A /v1 route that declares neither a role nor an API-key scope (``ctx_scope``, for the key routes
of forms and leads, whose key check is keys.py) is refused with 401, and an app whose /v1 route
sits outside the gated surfaces does not start (:func:`require_gated`): nothing is open by omission.
"""

from __future__ import annotations

from sanic import Request, Sanic
from sanic.blueprint_group import BlueprintGroup

from app.http import errors
from app.http.identity import cookie_write_origins, refuse_cross_origin_cookie_write
from app.http.tenant_access import TenantAccess, session_access

PRODUCT = "analytics"
READER, ADMIN = "leitor", "admin"
ROLES = (READER, ADMIN)


def access_of(request: Request) -> TenantAccess:
    """The account and person of a gated route (set by the gate)."""
    return request.ctx.access


async def gate(request: Request) -> None:
    ctx = request.route.ctx
    role = getattr(ctx, "role", None)
    if role is None:
        if getattr(ctx, "scope", None) is None:
            raise errors.AuthorizationError("This route is not open.")
        return
    if role not in ROLES:
        raise errors.AuthorizationError("This route declares no known role.")
    refuse_cross_origin_cookie_write(request, cookie_write_origins(request.app))
    await session_access(request, PRODUCT, role)


def require_gated(app: Sanic, gated: BlueprintGroup) -> None:
    """Refuses to build an app with a /v1 route outside the gated surfaces (the test-only diagnostics
    routes of app/http/diagnostics.py aside)."""
    names = {blueprint.name for blueprint in gated.blueprints} | {"diagnostics"}
    for route in app.router.routes:
        if route.path.startswith("v1/") and route.name.split(".")[1] not in names:
            raise RuntimeError(f"/{route.path} is outside the runtime's gated /v1 surfaces (app/runtime/server.py)")
