"""The account's own providers with an API key (scope ``providers:manage``; docs/providers.md), the
same service and answers as the dashboard's /api/providers:

    GET    /v1/providers                    {Providers, Catalog}
    GET    /v1/providers/{channel}/{key}    {Provider}
    PUT    /v1/providers/{channel}/{key}    201 {Provider} when made, 200 when replaced
    DELETE /v1/providers/{channel}/{key}    204

A provider configuration is the account's live delivery, which a test key never touches (its messages
go to the sinks whatever is configured): a test key may read it, and its writes are 403
``PermissionDenied``.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.gate.v1 import live_principal_of, principal_of
from app.platform.provider import service
from app.platform.provider.api import MAX_BODY
from app.platform.provider.schemas import ProviderSet
from app.platform.provider.views import PROVIDER, PROVIDERS, catalog_view, provider_view

bp = Blueprint("v1_providers", url_prefix="/v1")

SCOPE = "providers:manage"
PATH = "/providers/<channel:slug>/<key:slug>"
WHAT = "the account's providers"


@bp.get("/providers", ctx_scope=SCOPE, ctx_responses=answers({200: PROVIDERS}))
async def list_providers(request: Request) -> HTTPResponse:
    """The account's own provider settings, per channel (secrets never shown)."""
    rows = await service.list_providers(db.connection(), principal_of(request).tenant_pk)
    return reply(request, {"Providers": [provider_view(row) for row in rows], "Catalog": catalog_view()})


@bp.get(PATH, ctx_scope=SCOPE, ctx_responses=answers({200: PROVIDER}))
async def get_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """One provider setting of the account, by channel and key (secrets never shown)."""
    row = await service.provider(db.connection(), principal_of(request).tenant_pk, channel, key)
    return reply(request, {"Provider": provider_view(row)})


@bp.put(PATH, ctx_scope=SCOPE, ctx_body=ProviderSet, ctx_errors=(413, 422, 503),
        ctx_responses=answers({201: PROVIDER, 200: PROVIDER}))
async def set_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """Set (201) or replace (200) one provider setting of the account."""
    body = parse_body(request, ProviderSet, max_bytes=MAX_BODY)
    tenant_pk = live_principal_of(request, WHAT).tenant_pk
    loopback = request.app.ctx.settings.webhooks_allow_loopback
    await service.check_credentials(db.connection(), tenant_pk, channel, key, body.settings, body.secrets,
                                    allow_loopback=loopback)
    async with db.transaction() as conn:
        row, made = await service.set_provider(conn, tenant_pk, channel, key, body.settings, body.secrets,
                                               allow_loopback=loopback)
    return reply(request, {"Provider": provider_view(row)}, status=201 if made else 200)


@bp.delete(PATH, ctx_scope=SCOPE, ctx_responses=answers({204: NO_CONTENT}))
async def remove_provider(request: Request, channel: str, key: str) -> HTTPResponse:
    """Remove one provider setting; the channel falls back to the platform's provider."""
    tenant_pk = live_principal_of(request, WHAT).tenant_pk
    async with db.transaction() as conn:
        await service.remove_provider(conn, tenant_pk, channel, key)
    return no_content()
