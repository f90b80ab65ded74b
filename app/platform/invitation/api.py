"""Invitations on the dashboard (contract C1 ``/api/me/convites``, C2; docs/accounts.md).

    GET    /api/tenants/{id}/invitations             pending invitations (admin), cursor paging
    POST   /api/tenants/{id}/invitations             ``{Email, Role}``: invite; the e-mail is queued with it
                                                     (MAILS_PER_INVITER a day per inviter: 429 ``Throttling``)
    DELETE /api/tenants/{id}/invitations/{token}     cancel (``{token}``: the id ``cvt_...`` or the link's token)
    GET    /api/invitations/{token}/preview          public, PREVIEW_LIMIT a minute per client address
    POST   /api/invitations/accept                   ``{Token}``: the token is the authority
    POST   /api/invitations/decline                  ``{Token}``: 204, idempotent; public (the token is the
                                                     authority, as the e-mailed link is), DECLINE_LIMIT a
                                                     minute per client address: declining needs no account
    GET    /api/me/convites                          pending and expired, to the person's verified addresses
    POST   /api/me/convites/{id}/aceitar             200, idempotent
    POST   /api/me/convites/{id}/recusar             204, idempotent
    GET    /api/me/convites/contagem                 ``{pendentes}``; any failure ``{pendentes: null}``

Decisions (accept and decline, by token or by id) count DECISION_LIMIT an hour per person
(429 ``Throttling``). An accepted invitation writes the identity server's grants before the
membership commits (app/platform/member/grants.py).
"""

from __future__ import annotations

import logging

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NO_CONTENT, answers
from app.http.paging import KeysetPage
from app.http.responses import no_content, reply
from app.http.services import services
from app.platform import db
from app.platform.errors import IdentityUnavailable, InvitationsUnavailable
from app.platform.invitation import service
from app.platform.invitation.schemas import InvitationAccept, InvitationCreate
from app.platform.invitation.views import (ACCEPTED, INVITATION, INVITATIONS, OWN_INVITATION, OWN_INVITATIONS,
                                           PENDING_COUNT, PREVIEW, invitation_json, own_invitation_json,
                                           preview_json)
from app.platform.member import grants
from app.platform.gate import api as gate
from models.platform.invitation import Invitation
from models.platform.member import Role

bp = Blueprint("platform_dashboard_invitation")
log = logging.getLogger("herald.dashboard")

PREVIEW_LIMIT = 60  # previews a minute per client address
DECLINE_LIMIT = 10  # declines by token a minute per client address
DECISION_LIMIT = 30  # accepts and declines an hour per person (contract, Limits)
HOUR = 3600


async def _verified(request: Request) -> list[str]:
    """The person's verified addresses, primary and recovery, as the identity server keeps them
    (``GET /v1/auth/emails`` on the person's own session); 503 ``IdentityUnavailable`` when it
    does not answer."""
    session = gate.principal(request)
    answer = await services(request.app).client("identity").get("/v1/auth/emails", user_token=session.token,
                                                                outage=IdentityUnavailable)
    if answer.status == 401:
        raise errors.AuthorizationError("The session is not valid or has ended.")
    if not answer.ok or not isinstance(answer.body, dict) or not isinstance(answer.body.get("emails"), list):
        log.error("identity answered GET /v1/auth/emails with %s", answer.status)
        raise IdentityUnavailable()
    return sorted({service.normal_email(row["email"]) for row in answer.body["emails"]
                   if isinstance(row, dict) and row.get("verified") is True and isinstance(row.get("email"), str)})


async def _count_decision(request: Request) -> None:
    limiter = request.app.ctx.dashboard_limiter
    decision = await limiter.hit(f"invite-decisions:{gate.principal(request).user_id}", DECISION_LIMIT, HOUR)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, "Too many invitation decisions; try again later.",
                                headers=decision.headers())


async def _accept(request: Request, row: Invitation) -> Invitation:
    user_id = gate.principal(request).user_id
    identity = services(request.app).client("identity")
    async with db.transaction() as conn:
        row, made = await service.accept(conn, row, user_id)
        if made:
            await grants.grant(identity, row.tenant.public_id, user_id, Role(row.role))
    if made:
        await grants.sync_after(identity, db.connection(), row.tenant_id)
    return row


# --- the account's side -----------------------------------------------------------------------------

@bp.get("/api/tenants/<tenant_id:id>/invitations", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=("cursor", "limit"), ctx_errors=(400, 403), ctx_responses=answers({200: INVITATIONS}))
async def list_invitations(request: Request, tenant_id: str) -> HTTPResponse:
    """List the account's pending invitations, a page at a time.

    Owners and admins."""
    access = gate.tenant(request)
    conn = db.connection()
    page = await KeysetPage.of(request, default_limit=50, max_limit=100).fetch(
        conn, service.pending_of(conn, access.tenant_pk), audience=f"invitations:{access.tenant_id}")
    return reply(request, {"Invitations": [invitation_json(row, access.tenant_id) for row in page.items],
                           "NextCursor": page.next_cursor, "HasMore": page.has_more})


@bp.post("/api/tenants/<tenant_id:id>/invitations", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
         ctx_body=InvitationCreate, ctx_errors=(403, 409, 413, 429), ctx_responses=answers({201: INVITATION}))
async def invite(request: Request, tenant_id: str) -> HTTPResponse:
    """Invite a person to the account by e-mail, with a role.

    Owners and admins. 409 when the address already has a pending invitation to this account; 429 over the invitations'
    limit."""
    body = parse_body(request, InvitationCreate)
    access = gate.tenant(request)
    async with db.transaction() as conn:
        row = await service.invite(conn, access, body.email, Role(body.role),
                                   service.Mailer.of(request.app.ctx.settings), request.app.ctx.dashboard_limiter)
    request.app.ctx.wakeup.poke()
    return reply(request, {"Invitation": invitation_json(row, access.tenant_id)}, status=201)


@bp.delete("/api/tenants/<tenant_id:id>/invitations/<token:str>", ctx_auth="session", ctx_tenant="path",
           ctx_role="admin", ctx_errors=(403, 409), ctx_responses=answers({204: NO_CONTENT}))
async def cancel(request: Request, tenant_id: str, token: str) -> HTTPResponse:
    """Cancel a pending invitation; its link stops working.

    Owners and admins; 204 when done. 404 for an unknown invitation; 409 `AlreadyAccepted` or `Declined`."""
    async with db.transaction() as conn:
        await service.cancel(conn, gate.tenant(request), token)
    return no_content()


# --- the invited person's side ------------------------------------------------------------------------

@bp.get("/api/invitations/<token:str>/preview", ctx_public=True, ctx_errors=(429, 502),
        ctx_responses=answers({200: PREVIEW}))
async def preview(request: Request, token: str) -> HTTPResponse:
    """What an invitation is for, before signing in; never the token, the account id or the inviter."""
    limiter = request.app.ctx.dashboard_limiter
    decision = await limiter.hit(f"invite-preview:{gate.client_address(request)}", PREVIEW_LIMIT, 60)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())
    row = await service.by_token(db.connection(), token)
    if row is None:
        raise errors.NotFound("No such invitation.")
    has_account = None
    if service.status_of(row) == "pending":
        try:
            answer = await services(request.app).client("identity").get("/internal/v1/users/lookup",
                                                                        params={"email": row.email})
            if answer.ok and isinstance(answer.body, dict) and isinstance(answer.body.get("exists"), bool):
                has_account = answer.body["exists"]
        except errors.HttpError as failure:  # identity does not answer: HasAccount null (contract)
            log.warning("invitation preview without HasAccount: %s", failure.code)
    return reply(request, preview_json(row, has_account))


@bp.post("/api/invitations/accept", ctx_auth="session", ctx_body=InvitationAccept, ctx_errors=(409, 410, 429, 502),
         ctx_responses=answers({200: ACCEPTED}))
async def accept_by_token(request: Request) -> HTTPResponse:
    """Accept an invitation by the token of its e-mail; the signed-in person becomes a member.

    Any session. Idempotent. 404 for an unknown token; 409 `Declined` or `AlreadyAccepted`; 410 `Expired` or `Revoked`;
    429 over the decisions' limit (30 per person per hour); 502 when the identity server fails."""
    body = parse_body(request, InvitationAccept)
    await _count_decision(request)
    row = await service.by_token(db.connection(), body.token)
    if row is None:
        raise errors.NotFound("No such invitation.")
    row = await _accept(request, row)
    return reply(request, {"Invitation": invitation_json(row, row.tenant.public_id), "TenantId": row.tenant.public_id})


@bp.post("/api/invitations/decline", ctx_public=True, ctx_body=InvitationAccept, ctx_errors=(409, 410, 429),
         ctx_responses=answers({204: NO_CONTENT}))
async def decline_by_token(request: Request) -> HTTPResponse:
    """Decline an invitation by the token of its e-mail.

    Decline from the e-mailed link, signed in or not: whoever holds the link may say no (only a
    POST acts, so a mail scanner fetching the link declines nothing)."""
    body = parse_body(request, InvitationAccept)
    decision = await request.app.ctx.dashboard_limiter.hit(f"invite-decline:{gate.client_address(request)}",
                                                           DECLINE_LIMIT, 60)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after, headers=decision.headers())
    row = await service.by_token(db.connection(), body.token)
    if row is None:
        raise errors.NotFound("No such invitation.")
    async with db.transaction() as conn:
        await service.decline(conn, row, "")
    return no_content()


@bp.get("/api/me/convites", ctx_auth="session", ctx_errors=(502, 503), ctx_responses=answers({200: OWN_INVITATIONS}))
async def my_invitations(request: Request) -> HTTPResponse:
    """List the pending and expired invitations to the signed-in person's verified addresses.

    Any session. 503 `IdentityUnavailable` or `InvitationsUnavailable` when they cannot be read."""
    emails = await _verified(request)
    try:
        rows = await service.for_person(db.connection(), emails)
    except Exception as failure:  # noqa: BLE001 - the store did not answer: the contract's 503
        log.warning("invitations unavailable: %r", failure)
        raise InvitationsUnavailable(retry_after=5) from None
    return reply(request, {"Convites": [own_invitation_json(row) for row in rows]})


@bp.post("/api/me/convites/<invitation_id:id>/aceitar", ctx_auth="session", ctx_errors=(409, 410, 429, 502, 503),
         ctx_responses=answers({200: OWN_INVITATION}))
async def accept_mine(request: Request, invitation_id: str) -> HTTPResponse:
    """Accept one of the signed-in person's invitations; they become a member of its account.

    Any session. Idempotent. 404 for an unknown or foreign invitation, or a person without a verified address; 409
    `Declined` or `AlreadyAccepted`; 410 `Expired` or `Revoked`; 429 `Throttling` (30 decisions per person per hour);
    502; 503."""
    await _count_decision(request)
    row = await service.mine(db.connection(), await _verified(request), invitation_id)
    row = await _accept(request, row)
    return reply(request, {"Convite": own_invitation_json(row)})


@bp.post("/api/me/convites/<invitation_id:id>/recusar", ctx_auth="session", ctx_errors=(409, 410, 429, 503),
         ctx_responses=answers({204: NO_CONTENT}))
async def decline_mine(request: Request, invitation_id: str) -> HTTPResponse:
    """Decline one of the signed-in person's invitations.

    Any session; 204, idempotent. 404 for an unknown or foreign invitation; 409 `AlreadyAccepted`; 410 `Expired` or
    `Revoked`; 429 (30 decisions per person per hour); 503."""
    await _count_decision(request)
    row = await service.mine(db.connection(), await _verified(request), invitation_id)
    async with db.transaction() as conn:
        await service.decline(conn, row, gate.principal(request).user_id)
    return no_content()


@bp.get("/api/me/convites/contagem", ctx_auth="session", ctx_responses=answers({200: PENDING_COUNT}))
async def count_mine(request: Request) -> HTTPResponse:
    """Count the signed-in person's pending invitations (for a badge).

    Any session. Any failure answers 200 `{pendentes: null}`, never an error."""
    return reply(request, {"pendentes": await pending_count(request)})


async def pending_count(request: Request) -> int | None:
    """How many invitations wait for the person; None on any failure (the contract's null count)."""
    try:
        return await service.pending_count(db.connection(), await _verified(request))
    except Exception as failure:  # noqa: BLE001 - any failure is a null count (contract)
        log.warning("invitation count unavailable: %r", failure)
        return None
