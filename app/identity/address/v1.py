"""E-mail addresses over the JSON API (session): ``GET /v1/auth/emails``, ``POST /v1/auth/emails``
(add a recovery address, 202 neutral), ``DELETE /v1/auth/emails/{id}``,
``POST /v1/auth/emails/{id}/primary`` and ``POST /v1/auth/emails/{id}/verify/resend``.

Adding, removing and making primary need a recent re-authentication (reauth/service.py): with
them a stolen session could move the account's mail, and with it its password resets."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError

from app.http.openapi import NO_CONTENT, answers
from app.http.responses import no_content, reply
from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.address import service
from app.identity.address.schemas import AddressBody
from app.identity.address.views import ADDRESSES, address_json
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import require_session
from app.identity.reauth.service import require_recent
from app.identity.user.service import check_email
from app.identity.verification.service import RESEND_ACCOUNT

bp = Blueprint("identity_address")


def _platform(request: Request) -> str:
    return request.app.ctx.settings.url_of("console")


async def _listing(request: Request, user) -> HTTPResponse:
    return reply(request, {"emails": [address_json(row) for row in await service.addresses(user)]})


@bp.get("/v1/auth/emails", ctx_auth="session", ctx_responses=answers({200: ADDRESSES}))
async def list_addresses(request: Request) -> HTTPResponse:
    """List the person's e-mail addresses: the primary one and the recovery ones.

    The person's own session."""
    session = await require_session(request)
    return await _listing(request, session.user)


@bp.post("/v1/auth/emails", ctx_auth="session", ctx_body=AddressBody, ctx_responses=answers({202: None}),
         ctx_errors=(403, 409, 429))
async def add_address(request: Request) -> HTTPResponse:
    """Add a recovery e-mail address.

    Adds a recovery address and e-mails its verification link; the same answer whether the
    address is new or one the person already has. 10 attempts a day per person."""
    session = await require_session(request)
    body = read_body(request, AddressBody)
    await require_recent(session)
    email = check_email(body.email)
    caller = throttle.caller(request)
    await caller.counters.take(*service.limits(session.user, email))
    try:
        async with db.transaction() as conn:
            await service.add(conn, session.user, email, _platform(request), ip=caller.ip,
                              user_agent=caller.user_agent)
    except IntegrityError:
        pass  # the same address added by a parallel request: it exists, which is what was asked
    return reply(request, {"accepted": True}, status=202)


@bp.delete("/v1/auth/emails/<email_id:id>", ctx_auth="session", ctx_responses=answers({204: NO_CONTENT}),
           ctx_errors=(403, 409))
async def remove_address(request: Request, email_id: str) -> HTTPResponse:
    """Remove one of the person's recovery e-mail addresses.

    The person's own session, re-authenticated lately (403 `ReauthRequired` otherwise); 204 when done. 409 for the
    primary address."""
    session = await require_session(request)
    await require_recent(session)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        await service.remove(conn, session.user, email_id, ip=caller.ip, user_agent=caller.user_agent)
    return no_content()


@bp.post("/v1/auth/emails/<email_id:id>/primary", ctx_auth="session", ctx_responses=answers({200: ADDRESSES}),
         ctx_errors=(403, 409))
async def make_primary(request: Request, email_id: str) -> HTTPResponse:
    """Make one of the person's verified addresses their primary one; answers the addresses.

    The person's own session, re-authenticated lately (403 `ReauthRequired` otherwise). 409 for an address not verified,
    or another account's primary address."""
    session = await require_session(request)
    await require_recent(session)
    caller = throttle.caller(request)
    try:
        async with db.transaction() as conn:
            user = await service.make_primary(conn, session.user, email_id, ip=caller.ip,
                                              user_agent=caller.user_agent)
    except IntegrityError:  # the address became another account's primary meanwhile
        raise errors.Conflict("This address is another account's primary address.",
                              details={"id": "address in use"}) from None
    return await _listing(request, user)


@bp.post("/v1/auth/emails/<email_id:id>/verify/resend", ctx_auth="session", ctx_responses=answers({202: None}),
         ctx_errors=(409, 429))
async def resend(request: Request, email_id: str) -> HTTPResponse:
    """Send an address's verification link again.

    The verification link of one of the person's unverified addresses again (409 when it is
    verified); 5 an hour per person, and the address's own ceiling."""
    session = await require_session(request)
    address = await service.find(session.user, email_id)
    service.refuse_verified(address)
    await throttle.counters(request).take((RESEND_ACCOUNT, session.user.public_id),
                                          (throttle.MAIL_TO_ADDRESS, throttle.account_key(address.email)))
    async with db.transaction() as conn:
        await service.resend(conn, session.user, address, _platform(request))
    return reply(request, {"sent": True}, status=202)
