"""The platform's gates, one module per surface (docs/architecture.md, "The shape"):

- v1.py: ``/v1``, the API key (rate limit, usage counting, tenant status, the route's scope);
- api.py: ``/api``, the dashboard's session (the session hop, CSRF, tenant resolution, idempotency);
- admin.py: ``/api/admin``, platform staff (allowlist, support sessions read-only).

The internal routes (``/internal/v1``) check the service credential in their handlers
(app/http/services.py). server.py installs all of them with one call, :func:`install`.
"""

from __future__ import annotations

from sanic import Sanic

from app.platform.gate import admin, api, v1


def install(app: Sanic) -> None:
    v1.install(app)
    api.install(app)
    admin.install(app)
