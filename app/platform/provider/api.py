"""The account's own providers on the dashboard (the console's providers screen; docs/providers.md):

    GET    /api/providers                    200 {Providers, Catalog}
    GET    /api/providers/{channel}/{key}    200 {Provider}
    PUT    /api/providers/{channel}/{key}    201 {Provider} when made, 200 when replaced; 422 naming a field
    DELETE /api/providers/{channel}/{key}    204: the channel's messages go to the platform's default again

The account is the one the gate resolved from ``X-Service-Tenant`` (app/platform/gate/api.py);
reading needs membership, the writes the ``admin`` role. Secrets are write-only: an answer says
which are set, never what they are. A provider this surface does not set (``sink``, or ``webpush``,
whose keys the push set-up owns) is 404 on the writes.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate import api as gate
from app.platform.provider import service
from app.platform.provider.schemas import ProviderSet
from app.platform.provider.views import PROVIDER, PROVIDERS, catalog_view, provider_view

bp = Blueprint("platform_dashboard_provider")

# Ten secrets of 16 KiB (a PEM key, a service account) with their JSON escaping, and the settings.
MAX_BODY = 256 * 1024
PATH = "/api/providers/<channel:slug>/<key:slug>"


def _allow_loopback(request: Request) -> bool:
    return request.app.ctx.settings.webhooks_allow_loopback


@bp.get("/api/providers", ctx_auth="session", ctx_tenant="header", ctx_errors=(403,),
        ctx_responses=answers({200: PROVIDERS}))
async def list_providers(request: Request) -> HTTPResponse:
    """The account's providers by channel and key, and what each settable provider takes."""
    rows = await service.list_providers(db.connection(), gate.tenant(request).tenant_pk)
    return reply(request, {"Providers": [provider_view(row) for row in rows], "Catalog": catalog_view()})


@bp.get(PATH, ctx_auth="session", ctx_tenant="header", ctx_errors=(403,), ctx_responses=answers({200: PROVIDER}))
async def get_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """Retrieve one of the account's provider settings, without its secrets.

    Any member of the account (`X-Service-Tenant`); 404 for one the account does not have."""
    row = await service.provider(db.connection(), gate.tenant(request).tenant_pk, channel, key)
    return reply(request, {"Provider": provider_view(row)})


@bp.put(PATH, ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_body=ProviderSet,
        ctx_errors=(403, 413, 422, 503), ctx_responses=answers({201: PROVIDER, 200: PROVIDER}))
async def set_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """Create or replace a provider setting of a channel: its settings and secrets, checked before they are kept.

    Owners and admins (`X-Service-Tenant`). 201 when made, 200 when replaced. 422 for settings or credentials the
    provider refuses; 503 when the check cannot be made."""
    body = parse_body(request, ProviderSet, max_bytes=MAX_BODY)
    tenant_pk = gate.tenant(request).tenant_pk
    await service.check_credentials(db.connection(), tenant_pk, channel, key, body.settings, body.secrets,
                                    allow_loopback=_allow_loopback(request))
    async with db.transaction() as conn:
        row, made = await service.set_provider(conn, tenant_pk, channel, key, body.settings,
                                               body.secrets, allow_loopback=_allow_loopback(request))
    return reply(request, {"Provider": provider_view(row)}, status=201 if made else 200)


@bp.delete(PATH, ctx_auth="session", ctx_tenant="header", ctx_role="admin", ctx_errors=(403,),
           ctx_responses=answers({204: NO_CONTENT}))
async def remove_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """Remove one of the account's provider settings (a channel's provider, by its key).

    Owners and admins (`X-Service-Tenant`); 204 when done, 404 for one the account does not have."""
    async with db.transaction() as conn:
        await service.remove_provider(conn, gate.tenant(request).tenant_pk, channel, key)
    return no_content()
