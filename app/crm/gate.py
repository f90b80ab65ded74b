"""The CRM's gate: every route declares who may call it, read here before the handler runs.

- ``ctx_auth="session", ctx_role="leitor"|"editor"|"admin"``: a person acting in an account
  (``/v1``): the identity session (Bearer or the ``herald_session`` cookie, checked with the
  session hop on every request) and ``X-Service-Tenant``, allowed by the identity server's decision
  for the product ``crm`` with at least that role (app/http/tenant_access.py; cached at most 60 s).
  Reads need ``leitor``, writes ``editor``, settings ``admin``. A write that carries the cookie and
  no Bearer must come from an allowed Origin (the dashboard's), else 403.
- ``ctx_auth="service"``: the service credential (``/internal/v1``, the platform's calls), compared
  in constant time; the route names the account in its path.

A route under /v1 or /internal that declares neither is refused (401): nothing is open by omission.
"""

from __future__ import annotations

import logging

from sanic import Request, Sanic

from app.http import errors, support_access
from app.http.identity import cookie_write_origins, refuse_cross_origin_cookie_write
from app.http.services import install as install_services
from app.http.services import require_service_credential
from app.http.tenant_access import TENANT_ID, TenantAccess, session_access

log = logging.getLogger("herald.crm")

PRODUCT = "crm"
ROLES = ("leitor", "editor", "admin")


def access_of(request: Request) -> TenantAccess:
    """Who acts in which account on a ``ctx_auth="session"`` route (set by the gate)."""
    return request.ctx.access


def tenant_of_path(tenant: str) -> str:
    """The account an internal route names in its path; a malformed one names none (404)."""
    if not TENANT_ID.fullmatch(tenant):
        raise errors.NotFound("Account not found.")
    return tenant


def install(app: Sanic) -> None:
    install_services(app)
    support_access.install(app)
    origins = cookie_write_origins(app)

    @app.on_request(priority=50)
    async def crm_gate(request: Request) -> None:
        route = request.route
        if route is None:
            return  # 404/405 next, in the envelope
        ctx = route.ctx
        auth = getattr(ctx, "auth", None)
        if auth == "session":
            role = getattr(ctx, "role", None)
            if role not in ROLES:
                raise errors.AuthorizationError("This route declares no role.")
            refuse_cross_origin_cookie_write(request, origins)
            await session_access(request, PRODUCT, role)
        elif auth == "service":
            require_service_credential(request)
        elif request.path.startswith(("/v1/", "/internal/")):
            raise errors.AuthorizationError("This route is not open.")
