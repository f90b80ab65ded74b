"""Members of an account (contract C2; roles in docs/accounts.md).

    GET    /api/tenants/{id}/members            direct members of the account (any member), with the
                                                e-mail and name the identity server gives (null if it does not)
    POST   /api/tenants/{id}/members            link a person (``UserId``, ``Role``): admin; owner for owners
    DELETE /api/tenants/{id}/members/{userId}   unlink (admin; owner for owners; anyone may leave)

The identity server's grants follow the membership in the same step (app/platform/member/grants.py):
the grant is written before the membership commits, so a refused grant leaves no membership; a
failed commit takes the grant back.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.http.services import services
from app.platform import db
from app.platform.member import grants, service
from app.platform.member.schemas import MemberCreate
from app.platform.member.views import MEMBER, MEMBERS, member_json
from app.platform.session import gate
from models.platform.member import Role

bp = Blueprint("platform_dashboard_member")


@bp.get("/api/tenants/<tenant_id:id>/members", ctx_auth="session", ctx_tenant="path",
        ctx_responses=answers({200: MEMBERS}))
async def list_members(request: Request, tenant_id: str) -> HTTPResponse:
    rows = await service.members(db.connection(), gate.tenant(request))
    found = await grants.people(services(request.app).client("identity"), [row.user_id for row in rows])
    return reply(request, {"Members": [member_json(row, found.get(row.user_id)) for row in rows]})


@bp.post("/api/tenants/<tenant_id:id>/members", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
         ctx_body=MemberCreate, ctx_errors=(403, 409, 413, 502), ctx_responses=answers({200: MEMBER, 201: MEMBER}))
async def add_member(request: Request, tenant_id: str) -> HTTPResponse:
    body = parse_body(request, MemberCreate)
    access = gate.tenant(request)
    identity = services(request.app).client("identity")
    granted = False
    try:
        async with db.transaction() as conn:
            row, created = await service.add(conn, access, body.user_id, Role(body.role))
            await grants.grant(identity, access.tenant_id, body.user_id, Role(body.role))
            granted = True
    except Exception:
        if granted and created:
            await grants.revoke(identity, access.tenant_id, body.user_id)
        raise
    await grants.sync_after(identity, db.connection(), access.tenant_pk)
    return reply(request, {"Member": member_json(row)}, status=201 if created else 200)


@bp.delete("/api/tenants/<tenant_id:id>/members/<user_id:id>", ctx_auth="session", ctx_tenant="path",
           ctx_errors=(403, 409, 502), ctx_responses=answers({204: NO_CONTENT}))
async def remove_member(request: Request, tenant_id: str, user_id: str) -> HTTPResponse:
    access = gate.tenant(request)
    identity = services(request.app).client("identity")
    async with db.transaction() as conn:
        await service.remove(conn, access, user_id)
        await grants.revoke(identity, access.tenant_id, user_id)
    await grants.sync_after(identity, db.connection(), access.tenant_pk)
    return no_content()
