"""Sign-up and the access requests it files.

``POST /api/auth/register`` (public): the sign-up saga of service.py, answered as the contract's
"Registration result" ``{UserId, UserEmail, Tenant, Reason, AccessRequestId}``: 201 with a new
account; 202 without one (``Reason``); 400 ``InviteInvalid`` / ``InviteEmailMismatch`` with no
user made; 409 when the address has an account; 503 when the platform's step failed (the user was
withdrawn again).

An account's admins decide the access requests of sign-ups from its claimed domains:
``GET /api/tenants/{id}/access-requests`` (pending ones), ``POST .../{requestId}/approve``
(``{Role?}``, default ``member``: the person becomes a member) and ``POST .../{requestId}/deny``.
Only requests whose address the identity server reports verified are listed or decided (an
unverified one is 404 like a missing one); each of these routes first asks the identity server
about the unverified ones (service.refresh_verified). Unverified for 7 days: expired.
"""

from __future__ import annotations

import logging

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, answers, described, reply_of, shape
from app.http.paging import KeysetPage
from app.http.responses import iso, reply
from app.http.services import services
from app.platform import db
from app.platform.invitation import service as invitations
from app.platform.member import grants
from app.platform.registration import service
from app.platform.registration.schemas import ApprovalBody, RegisterBody
from app.platform.gate import api as gate
from app.platform.tenant.views import TENANT_SHAPE, tenant_json
from models.platform.member import Role
from models.platform.registration import AccessRequest
from models.platform.tenant import Tenant

bp = Blueprint("platform_dashboard_registration")
log = logging.getLogger("herald.dashboard")

RESULT = reply_of(
    UserId=described(STRING, "The new person's id (usr_...)."),
    UserEmail=described(STRING, "Their e-mail address."),
    Tenant=described({"oneOf": [TENANT_SHAPE, {"type": "null"}]},
                     "The account made, or joined by the invitation; null when none."),
    Reason=described(NULLABLE_STRING, "Why there is no new account: DomainClaimed, TenantNameTaken, "
                                      "ProvisioningFailed or Invited; null when one was made."),
    AccessRequestId=described(NULLABLE_STRING, "DomainClaimed: the access request filed with the account that "
                                               "claimed the address's domain; null otherwise."))


def _result(request: Request, outcome: service.Outcome) -> HTTPResponse:
    tenant = tenant_json(outcome.tenant) if outcome.tenant is not None else None
    return reply(request, {"UserId": outcome.user_id, "UserEmail": outcome.email, "Tenant": tenant,
                           "Reason": outcome.reason, "AccessRequestId": outcome.access_request_id},
                 status=201 if outcome.created_account else 202)


@bp.post("/api/auth/register", ctx_public=True, ctx_body=RegisterBody, ctx_errors=(409, 413, 422, 429, 502, 503),
         ctx_responses=answers({201: RESULT, 202: RESULT}))
async def register(request: Request) -> HTTPResponse:
    """Sign up: create a person and their first account, or join an account by an invitation's token.

    Public. 201 when the person and account are made; 202 when the person is made without an account, with `Reason`
    (`DomainClaimed`: an access request is made, `AccessRequestId`; `TenantNameTaken`; `ProvisioningFailed`; `Invited`).
    400 `InviteInvalid` or `InviteEmailMismatch` (no person made); 409 when the address has an account; 429 after too
    many sign-ups; 502 when the identity server fails; 503 when the sign-up could not be completed (nothing kept)."""
    body = parse_body(request, RegisterBody)
    email = body.email.strip()
    invitation = None
    if body.convite_token:
        invitation = invitations.check_for_registration(
            await invitations.by_token(db.connection(), body.convite_token), email)
    elif not (body.tenant_name or "").strip():
        raise errors.ValidationError("'TenantName' is required without 'ConviteToken'.",
                                     details={"TenantName": "required without ConviteToken"})
    identity = services(request.app).client("identity")
    user_id = await service.create_user(identity, gate.caller(request), email, body.password, body.name)
    outcome = service.Outcome(user_id=user_id, email=email)
    try:
        async with db.transaction() as conn:
            await service.platform_step(conn, outcome, body.tenant_name, invitation)
            if invitation is not None:
                await grants.grant(identity, outcome.tenant.public_id, user_id, Role(invitation.role))
    except Exception as failure:
        log.error("sign-up of %s failed on the platform (%r); withdrawing the user", user_id, failure)
        await service.withdraw_user(identity, user_id)
        if isinstance(failure, errors.HttpError) and failure.status < 500:
            raise
        raise errors.ServiceUnavailable("The sign-up could not be completed; nothing was kept. Try again shortly.",
                                        retry_after=5) from None
    if invitation is not None:
        await grants.sync_after(identity, db.connection(), outcome.tenant.id)
    if outcome.created_account:
        try:
            await grants.provision(identity, outcome.tenant.public_id, user_id)
        except errors.HttpError as failure:
            log.error("sign-up of %s: the account's identity grants failed (%s); the account is removed", user_id,
                      failure.code)
            async with db.transaction() as conn:
                await Tenant.filter(id=outcome.tenant.id).using_db(conn).delete()
            outcome.tenant, outcome.created_account = None, False
            outcome.reason = service.Reason.PROVISIONING_FAILED
    if outcome.tenant is not None:
        outcome.tenant = await Tenant.filter(id=outcome.tenant.id).select_related("parent").first()
    return _result(request, outcome)


REQUEST_SHAPE = shape(
    Id=described(STRING, "The access request's id."),
    UserId=described(STRING, "The id of the person who signed up (usr_...)."),
    Email=described(STRING, "Their e-mail address, of a domain the account claimed."),
    Status=described({"type": "string", "enum": ["pending", "approved", "denied"]}, "pending, approved or denied."),
    CreatedAt=described(TIMESTAMP, "When they signed up."))
REQUESTS = reply_of(AccessRequests=described({"type": "array", "items": REQUEST_SHAPE},
                                             "The account's pending access requests of verified addresses."),
                    NextCursor=described(NULLABLE_STRING, "Give it as cursor for the next page; null on the last."),
                    HasMore=described({"type": "boolean"}, "Whether there is a next page."))
REQUEST = reply_of(AccessRequest=described(REQUEST_SHAPE, "The access request."))


def request_json(row: AccessRequest) -> dict:
    return {"Id": row.public_id, "UserId": row.user_id, "Email": row.email, "Status": row.status,
            "CreatedAt": iso(row.created_at)}


@bp.get("/api/tenants/<tenant_id:id>/access-requests", ctx_auth="session", ctx_tenant="path", ctx_role="admin",
        ctx_query=("cursor", "limit"), ctx_errors=(400, 403), ctx_responses=answers({200: REQUESTS}))
async def list_requests(request: Request, tenant_id: str) -> HTTPResponse:
    """List the account's pending access requests (people who signed up with the account's domain), a page at a time.

    Owners and admins."""
    access = gate.tenant(request)
    conn = db.connection()
    await service.refresh_verified(conn, services(request.app).client("identity"), access.tenant_pk)
    page = await KeysetPage.of(request, default_limit=50, max_limit=100).fetch(
        conn, service.pending_requests(conn, access.tenant_pk), audience=f"access-requests:{access.tenant_id}")
    return reply(request, {"AccessRequests": [request_json(row) for row in page.items],
                           "NextCursor": page.next_cursor, "HasMore": page.has_more})


@bp.post("/api/tenants/<tenant_id:id>/access-requests/<request_id:id>/approve", ctx_auth="session",
         ctx_tenant="path", ctx_role="admin", ctx_optional_body=ApprovalBody, ctx_errors=(403, 409, 502),
         ctx_responses=answers({200: REQUEST}))
async def approve_request(request: Request, tenant_id: str, request_id: str) -> HTTPResponse:
    """Approve an access request: the person becomes a member, with `Role` (default member).

    Owners and admins; only owners may approve with `Role: owner`. 409 when the request was already decided; 502 when
    the identity server fails."""
    body = parse_body(request, ApprovalBody) if request.body else ApprovalBody()
    access = gate.tenant(request)
    role = Role(body.role)
    access.require(Role.OWNER if role is Role.OWNER else Role.ADMIN)
    identity = services(request.app).client("identity")
    await service.refresh_verified(db.connection(), identity, access.tenant_pk, request_id)
    async with db.transaction() as conn:
        row = await service.decide_request(conn, access.tenant_pk, request_id, True, role)
        await grants.grant(identity, access.tenant_id, row.user_id, role)
    await grants.sync_after(identity, db.connection(), access.tenant_pk)
    return reply(request, {"AccessRequest": request_json(row)})


@bp.post("/api/tenants/<tenant_id:id>/access-requests/<request_id:id>/deny", ctx_auth="session",
         ctx_tenant="path", ctx_role="admin", ctx_errors=(403, 409), ctx_responses=answers({200: REQUEST}))
async def deny_request(request: Request, tenant_id: str, request_id: str) -> HTTPResponse:
    """Deny an access request.

    Owners and admins. 409 when the request was already decided."""
    access = gate.tenant(request)
    await service.refresh_verified(db.connection(), services(request.app).client("identity"), access.tenant_pk,
                                   request_id)
    async with db.transaction() as conn:
        row = await service.decide_request(conn, access.tenant_pk, request_id, False)
    return reply(request, {"AccessRequest": request_json(row)})
