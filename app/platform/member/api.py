"""Members of an account (contract C2; roles in docs/accounts.md).

    GET    /api/tenants/{id}/members            direct members of the account (any member), with the
                                                e-mail and name the identity server gives (null if it does not)
    POST   /api/tenants/{id}/members            ``{UserId, Role}`` (admin; owner for owners): a direct
                                                member gets the role (200 ``{Member}``); anyone else is
                                                INVITED, never linked: 202 ``{Invitation}``
    DELETE /api/tenants/{id}/members/{userId}   unlink (admin; owner for owners; anyone may leave)

Nobody joins an account without saying yes (issue 38): the header-less dashboard acts in the
smallest account id among a person's direct memberships (the contract's rule), so a link made
without consent could make an attacker's account the victim's default. ``POST .../members`` for a
person who is not a direct member files an invitation to the address the identity server has for
them (the same invitation, e-mail and daily cap as ``POST .../invitations``); the membership is
made when they accept it. Access inherited from an ancestor needs no link.

The identity server's grants follow a role change in the same step (app/platform/member/grants.py):
the grant is written before the change commits, so a refused grant leaves the role as it was.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.http.services import services
from app.platform import db
from app.platform.invitation import service as invitations
from app.platform.invitation.views import INVITATION, invitation_json
from app.platform.member import grants, service
from app.platform.member.schemas import MemberCreate
from app.platform.member.views import MEMBER, MEMBERS, member_json
from app.platform.gate import api as gate
from models.platform.member import Role

bp = Blueprint("platform_dashboard_member")


@bp.get("/api/tenants/<tenant_id:id>/members", ctx_auth="session", ctx_tenant="path",
        ctx_responses=answers({200: MEMBERS}))
async def list_members(request: Request, tenant_id: str) -> HTTPResponse:
    """List the account's members with their roles.

    Any member of the account."""
    rows = await service.members(db.connection(), gate.tenant(request))
    found = await grants.people(services(request.app).client("identity"), [row.user_id for row in rows])
    return reply(request, {"Members": [member_json(row, found.get(row.user_id)) for row in rows]})


@bp.post("/api/tenants/<tenant_id:id>/members", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
         ctx_body=MemberCreate, ctx_errors=(403, 409, 413, 429, 502),
         ctx_responses=answers({200: MEMBER, 202: INVITATION}))
async def add_member(request: Request, tenant_id: str) -> HTTPResponse:
    """Add a person to the account, or change a member's role.

    Owners and admins. A member already in the account gets the role (200 `{Member}`); anyone else is invited by e-mail
    (202 `{Invitation}`). 404 for a user nobody knows; 409 when the account has no room or the change would leave it
    without an owner; 429 over the invitations' limit; 502 when the identity server fails."""
    body = parse_body(request, MemberCreate)
    access, role = gate.tenant(request), Role(body.role)
    identity = services(request.app).client("identity")
    async with db.transaction() as conn:
        row = await service.change_role(conn, access, body.user_id, role)
        if row is not None:
            await grants.grant(identity, access.tenant_id, body.user_id, role)
    if row is not None:
        await grants.sync_after(identity, db.connection(), access.tenant_pk)
        return reply(request, {"Member": member_json(row)})
    person = await grants.person(identity, body.user_id)  # 404 for a user nobody knows
    async with db.transaction() as conn:
        await service.check_room(conn, access.tenant_pk)
        invited = await invitations.invite(conn, access, person["email"], role,
                                           invitations.Mailer.of(request.app.ctx.settings),
                                           request.app.ctx.dashboard_limiter)
    request.app.ctx.wakeup.poke()
    return reply(request, {"Invitation": invitation_json(invited, access.tenant_id)}, status=202)


@bp.delete("/api/tenants/<tenant_id:id>/members/<user_id:id>", ctx_auth="session", ctx_tenant="path",
           ctx_errors=(403, 409, 502), ctx_responses=answers({204: NO_CONTENT}))
async def remove_member(request: Request, tenant_id: str, user_id: str) -> HTTPResponse:
    """Remove a member from the account; their access ends.

    Owners and admins; 204 when done. 409 when it would leave the account without an owner; 502 when the identity server
    fails."""
    access = gate.tenant(request)
    identity = services(request.app).client("identity")
    async with db.transaction() as conn:
        await service.remove(conn, access, user_id)
        await grants.revoke(identity, access.tenant_id, user_id)
    await grants.sync_after(identity, db.connection(), access.tenant_pk)
    return no_content()
