"""The runtime's ``/v1`` gate for people acting in an account (pixels, analytics, replay).

Installed once in app/runtime/server.py. A route declares the least role it needs where it is
defined, ``ctx_role="leitor"`` (reads) or ``ctx_role="admin"`` (writes), with ``ctx_auth="session"``;
the gate then requires a live identity session allowed to use the product ``analytics`` in the
account named by ``X-Service-Tenant`` with that role (app/http/tenant_access.py: 401 no session,
404 not yours, 403 a lower role, 503 when the identity server cannot say). A write that carries the
session cookie and no Bearer must come from the dashboard's Origin (else 403), as on the CRM.

A /v1 route that declares neither a role nor an API-key scope (``ctx_scope``, for the key routes
of forms and leads, which bring their own gate) is refused with 401: nothing is open by omission.
"""

from __future__ import annotations

from sanic import Request, Sanic

from app.http import errors
from app.http.identity import origin_of, refuse_cross_origin_cookie_write
from app.http.tenant_access import TenantAccess, session_access

PRODUCT = "analytics"
READER, ADMIN = "leitor", "admin"
ROLES = (READER, ADMIN)


def access_of(request: Request) -> TenantAccess:
    """The account and person of a gated route (set by the gate)."""
    return request.ctx.access


def install(app: Sanic) -> None:
    settings = app.ctx.settings
    origins = frozenset(filter(None, (origin_of(settings.url_of("platform")), origin_of(settings.url_of("runtime")),
                                      *map(origin_of, settings.dashboard_origins))))

    @app.on_request(priority=50)
    async def gate(request: Request) -> None:
        if request.route is None or not request.path.startswith("/v1/"):
            return
        ctx = request.route.ctx
        role = getattr(ctx, "role", None)
        if role is None:
            if getattr(ctx, "scope", None) is None:
                raise errors.AuthorizationError("This route is not open.")
            return
        if role not in ROLES:
            raise errors.AuthorizationError("This route declares no known role.")
        refuse_cross_origin_cookie_write(request, origins)
        await session_access(request, PRODUCT, role)
