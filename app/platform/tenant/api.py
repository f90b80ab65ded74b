"""The dashboard's accounts and their tree (contract C2; docs/accounts.md).

    GET  /api/tenants                     every account the person reaches, with their role
    POST /api/tenants                     a new root account; the person is its owner
    GET  /api/tenants/tree?depth=         the resolved account and its sub-accounts
    POST /api/tenants/{id}/children       a sub-account (admin)
    PATCH /api/tenants/{id}/parent        move in the tree (owner of both sides)
    PATCH /api/tenants/{id}/quota         the monthly quota; EffectiveQuota recomputed below (owner)
    GET  /api/tenants/{id}/impersonations the support sessions opened on the account (any member)

The gate (app/platform/gate/api.py) has proved the person's access to ``{id}`` (404 outside
it) and the route's role before any handler runs.
"""

from __future__ import annotations

import logging

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import load_json, validate
from app.http.openapi import answers
from app.http.paging import KeysetPage
from app.http.query import int_param
from app.http.responses import reply
from app.platform import db
from app.platform.member import grants
from app.platform.member import service as members
from app.platform.gate import api as gate
from app.platform.tenant import service
from app.platform.tenant.schemas import IGNORED_ON_CREATE, ChildCreate, ParentChange, QuotaChange, TenantCreate
from app.platform.tenant.views import (IMPERSONATIONS, TENANT, TENANTS, TREE, WRAPPED, impersonation_json, tenant_json,
                                       tree_json)
from app.http.services import services
from models.platform.member import Role
from models.platform.tenant import Tenant

bp = Blueprint("platform_dashboard_tenant")
log = logging.getLogger("herald.dashboard")

DEFAULT_DEPTH = 5
MAX_DEPTH = service.TREE_DEPTH


def _object(request: Request) -> dict:
    data = load_json(request)
    if not isinstance(data, dict):
        raise errors.ValidationError("The request body must be a JSON object.")
    return data


def _required(data: dict, field: str) -> None:
    """A PATCH body without its one field is 422 (contract C2), not the 400 of a malformed body."""
    if field not in data:
        raise errors.Unprocessable(f"'{field}' is required.", details={field: "required"})


async def _provision(request: Request, tenant: Tenant, owner_id: str) -> None:
    """The identity side of a new account; on failure the account is removed again (compensation:
    nothing half-made is left) and the failure answered."""
    try:
        await grants.provision(services(request.app).client("identity"), tenant.public_id, owner_id)
    except errors.HttpError:
        async with db.transaction() as conn:
            await Tenant.filter(id=tenant.id).using_db(conn).delete()
        raise


@bp.get("/api/tenants", ctx_auth="session", ctx_responses=answers({200: TENANTS}))
async def list_tenants(request: Request) -> HTTPResponse:
    """List the accounts the signed-in person reaches, with their role in each.

    Any session."""
    return reply(request, {"Tenants": await reachable_json(request)})


async def reachable_json(request: Request) -> list[dict]:
    """The accounts the person reaches, with their role on each (also in app/platform/navigation/)."""
    conn = db.connection()
    roles = await members.reachable(conn, gate.principal(request).user_id)
    rows = await service.tenants_by_pk(conn, roles)
    return [tenant_json(row, roles[row.id].value) for row in rows]


@bp.post("/api/tenants", ctx_auth="session", ctx_body=TenantCreate, ctx_errors=(409, 413, 422, 502),
         ctx_responses=answers({201: TENANT}))
async def create_tenant(request: Request) -> HTTPResponse:
    """Create an account; the signed-in person is its owner.

    Any session. 409 when the slug is taken; 422 for a name or slug that is not valid; 502 when the identity
    server fails."""
    data = _object(request)
    for name in IGNORED_ON_CREATE:
        if name in data:
            log.error("POST /api/tenants: ignored field %r sent by %s", name, gate.principal(request).user_id)
            data.pop(name)
    body = validate(data, TenantCreate)
    user_id = gate.principal(request).user_id
    async with db.transaction() as conn:
        tenant = await service.create_tenant(body.name, body.slug)
        await members.link(conn, tenant.id, user_id, Role.OWNER)
    await _provision(request, tenant, user_id)
    return reply(request, tenant_json(await service.tenant_of(db.connection(), tenant.id)), status=201)


@bp.get("/api/tenants/tree", ctx_auth="session", ctx_tenant="header", ctx_query=("depth",), ctx_errors=(403,),
        ctx_responses=answers({200: TREE}))
async def tree(request: Request) -> HTTPResponse:
    """Retrieve the account and its sub-accounts as a tree, to `depth` levels.

    Any member of the account (`X-Service-Tenant`)."""
    depth = int_param(request, "depth", default=DEFAULT_DEPTH, low=1, high=MAX_DEPTH)
    access = gate.tenant(request)
    rows = await service.subtree(db.connection(), access.tenant_pk, depth)
    return reply(request, {"TenantId": access.tenant_id, "Tree": tree_json(rows)})


@bp.post("/api/tenants/<tenant_id:id>/children", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
         ctx_body=ChildCreate, ctx_errors=(403, 409, 413, 422, 502), ctx_responses=answers({201: WRAPPED}))
async def create_child(request: Request, tenant_id: str) -> HTTPResponse:
    """Create a sub-account under the account, optionally with a monthly quota.

    Owners and admins of the parent. 409 when the slug is taken; 422 for a value that is
    not valid; 502 when the identity server fails."""
    body = validate(_object(request), ChildCreate)
    access = gate.tenant(request)
    async with db.transaction() as conn:
        child = await service.create_child(conn, access.tenant_pk, body.name, body.slug, body.monthly_quota)
    # The creator holds the child through the parent already; the identity server needs its own grants,
    # and so does everyone who reaches the child through its ancestors.
    await _provision(request, child, access.user_id)
    await grants.sync_after(services(request.app).client("identity"), db.connection(), child.id)
    return reply(request, {"Tenant": tenant_json(child, access.role.value)}, status=201)


@bp.patch("/api/tenants/<tenant_id:id>/parent", ctx_auth="session", ctx_tenant="path", ctx_role="owner",
          ctx_body=ParentChange, ctx_errors=(403, 422), ctx_responses=answers({200: WRAPPED}))
async def move(request: Request, tenant_id: str) -> HTTPResponse:
    """Move the account under another parent (`ParentId`), or make it a root (`ParentId: null`).

    Owners of the account, and of the new parent. 422 for a move the tree does not allow (under itself or its own
    sub-account)."""
    data = _object(request)
    _required(data, "ParentId")
    body = validate(data, ParentChange)
    access = gate.tenant(request)
    new_parent = None
    if body.parent_id is not None:
        target = await members.require_access(db.connection(), access.user_id, body.parent_id)
        target.require(Role.OWNER)
        new_parent = target.tenant_pk
    async with db.transaction() as conn:
        moved = await service.move(conn, access.tenant_pk, new_parent)
        if new_parent is None and access.inherited:
            # A new root owned through its old ancestors only would be nobody's: the mover owns it.
            await members.link(conn, access.tenant_pk, access.user_id, Role.OWNER)
    await grants.sync_after(services(request.app).client("identity"), db.connection(), access.tenant_pk)
    return reply(request, {"Tenant": tenant_json(moved, access.role.value)})


@bp.patch("/api/tenants/<tenant_id:id>/quota", ctx_auth="session", ctx_tenant="path", ctx_role="owner",
          ctx_body=QuotaChange, ctx_errors=(403, 422), ctx_responses=answers({200: WRAPPED}))
async def quota(request: Request, tenant_id: str) -> HTTPResponse:
    """Set the account's monthly quota (`MonthlyQuota`, null for none).

    Owners of the account. 422 for a quota that is not valid."""
    data = _object(request)
    _required(data, "MonthlyQuota")
    body = validate(data, QuotaChange)
    access = gate.tenant(request)
    async with db.transaction() as conn:
        changed = await service.set_quota(conn, access.tenant_pk, body.monthly_quota)
    return reply(request, {"Tenant": tenant_json(changed, access.role.value)})


@bp.get("/api/tenants/<tenant_id:id>/impersonations", ctx_auth="session", ctx_tenant="path",
        ctx_query=("cursor", "limit"), ctx_errors=(400,), ctx_responses=answers({200: IMPERSONATIONS}))
async def impersonations(request: Request, tenant_id: str) -> HTTPResponse:
    """The support sessions operators opened on this account (any member reads the trail)."""
    access = gate.tenant(request)
    conn = db.connection()
    page = await KeysetPage.of(request, default_limit=50, max_limit=100).fetch(
        conn, service.support_sessions(conn, access.tenant_pk), audience=f"impersonations:{access.tenant_id}")
    return reply(request, {"Impersonations": [impersonation_json(row) for row in page.items],
                           "NextCursor": page.next_cursor, "HasMore": page.has_more})
