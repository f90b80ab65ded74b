"""An account's API keys on the dashboard (contract C2; docs/accounts.md, "Keys"): admins and owners.

    GET    /api/tenants/{id}/api-keys            the account's keys (revoked ones marked), cursor paging
    POST   /api/tenants/{id}/api-keys            ``{name, scopes, kind?}`` → the key, its plaintext once
    DELETE /api/tenants/{id}/api-keys/{keyId}    revoke

The rules and the storage are the CLI's (app/platform/api_key/service.py): only the SHA-256 is
kept; scopes come from the catalog (400 with the valid list otherwise); at most
:data:`KEYS_PER_TENANT` active keys (409 ``LimitExceeded``).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.platform import db
from app.platform.api_key import service
from app.platform.api_key.schemas import KeyCreate
from app.platform.api_key.views import CREATED, KEYS, SCOPE_CATALOG, created_json, key_json
from app.platform.errors import InvalidScopes, ScopeError
from app.platform.gate import api as gate
from models.platform.api_key import KeyKind
from models.platform.scopes import PUBLISHABLE_SCOPES, SCOPES

bp = Blueprint("platform_dashboard_api_key")

KINDS = {"live": KeyKind.LIVE, "test": KeyKind.TEST, "publishable": KeyKind.PUBLISHABLE}


@bp.get("/api/api-key-scopes", ctx_auth="session", ctx_responses=answers({200: SCOPE_CATALOG}))
async def scope_catalog(request: Request) -> HTTPResponse:
    """List the scopes a new API key may hold.

    The scopes a new key may hold, in catalog order, with what each grants and whether a
    publishable key may hold it (the console's key form is built from it)."""
    return reply(request, {"Scopes": [{"Scope": scope, "Grants": grants, "Publishable": scope in PUBLISHABLE_SCOPES}
                                      for scope, grants in SCOPES.items()]})


@bp.get("/api/tenants/<tenant_id:id>/api-keys", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=("cursor", "limit"), ctx_errors=(400, 403), ctx_responses=answers({200: KEYS}))
async def list_keys(request: Request, tenant_id: str) -> HTTPResponse:
    """List the account's API keys (never their secrets), a page at a time.

    Owners and admins."""
    access = gate.tenant(request)
    conn = db.connection()
    page = await KeysetPage.of(request, default_limit=50, max_limit=100).fetch(
        conn, service.tenant_keys(conn, access.tenant_pk), audience=f"api-keys:{access.tenant_id}")
    return reply(request, {"ApiKeys": [key_json(key) for key in page.items], "NextCursor": page.next_cursor,
                           "HasMore": page.has_more})


@bp.post("/api/tenants/<tenant_id:id>/api-keys", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
         ctx_idempotency=False, ctx_body=KeyCreate, ctx_errors=(403, 409, 413), ctx_responses=answers({201: CREATED}))
async def create_key(request: Request, tenant_id: str) -> HTTPResponse:
    """Create an API key with its scopes and kind (live or test); the answer shows the key once.

    Owners and admins. 400 for an unknown scope; 409 over the account's number of keys."""
    body = parse_body(request, KeyCreate)
    access = gate.tenant(request)
    try:
        async with db.transaction() as conn:
            key, plaintext = await service.create_tenant_key(conn, access.tenant_pk, access.tenant_id, body.name,
                                                             list(body.scopes or ()), KINDS[body.kind])
    except ScopeError as refusal:
        raise InvalidScopes(refusal) from None
    return reply(request, {"ApiKey": created_json(key, plaintext)}, status=201)


@bp.delete("/api/tenants/<tenant_id:id>/api-keys/<key_id:id>", ctx_auth="session", ctx_tenant="path",
           ctx_role="admin", ctx_errors=(403,), ctx_responses=answers({204: NO_CONTENT}))
async def revoke_key(request: Request, key_id: str, tenant_id: str) -> HTTPResponse:
    """Revoke an API key: it is refused from now on.

    Owners and admins; 204 when done, 404 for a key of another account."""
    async with db.transaction() as conn:
        await service.revoke_tenant_key(conn, gate.tenant(request).tenant_pk, key_id)
    return no_content()
