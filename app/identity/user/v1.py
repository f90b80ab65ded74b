"""Users over the JSON API: ``POST /v1/users`` (and ``/v1/users/``), ``GET`` and ``PATCH
/v1/users/{id}``, and ``POST /v1/auth/verify`` (the e-mail verification link).

Both writes that send e-mail are limited per client address (ACCOUNT_IP_LIMIT an hour) and per
destination address (verification e-mails to one address); an e-mail change is also limited per
account. A change of e-mail on a session needs a recent re-authentication (the service
credential is trusted: the platform asks its own).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db, errors
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body
from app.identity.gate.credentials import is_service, require_session
from app.identity.password import service as passwords
from app.identity.reauth.service import require_recent
from app.identity.user import service
from app.identity.user.schemas import CreateUserBody, PatchUserBody, TokenBody
from app.identity.user.views import USER, user_json

bp = Blueprint("identity_user")


def _address_limits(request: Request, per_ip: throttle.Limit, email: str) -> tuple[throttle.Pair, ...]:
    """Per client address (not for the service credential: the platform calls for many people
    from one address and limits them itself) and per destination address."""
    limits = ((throttle.MAIL_TO_ADDRESS, throttle.account_key(email)),)
    if not is_service(request):
        limits = ((per_ip, throttle.client_ip(request)),) + limits
    return limits


@bp.post("/v1/users", strict_slashes=False, ctx_body=CreateUserBody, ctx_responses=answers({201: USER}))
async def create_user(request: Request) -> HTTPResponse:
    """Create a user (sign up) with an e-mail address, a password and a name; a verification link is sent.

    No credential. 201 `{user}`; 409 `Conflict` when the address has an account (case-insensitive); 422 `WeakPassword`;
    429 `TooManyAttempts` past the limits per address."""
    body = read_body(request, CreateUserBody)
    email = service.check_email(body.email)
    name = service.check_name(body.name)
    passwords.check_policy(body.password, minimum=passwords.MIN_LENGTH, email=email, name=name)
    # Every attempt counts: each may create an account, cost a bcrypt hash and send an e-mail.
    per_ip = throttle.signup_ip(request.app.ctx.settings.account_ip_limit)
    await throttle.counters(request).take(*_address_limits(request, per_ip, email))
    await service.refuse_taken(email)
    password_hash = await passwords.hash_password(body.password)
    try:
        async with db.transaction() as conn:
            user = await service.create_user(conn, email, name, password_hash,
                                             request.app.ctx.settings.url_of("console"))
    except IntegrityError:
        raise service.email_taken() from None
    return reply(request, {"user": user_json(user)}, status=201)


@bp.get("/v1/users/<user_id:id>", ctx_auth="session|service", ctx_responses=answers({200: USER}))
async def get_user(request: Request, user_id: str) -> HTTPResponse:
    """Retrieve a user.

    The user's own session, or the service credential."""
    session = None if is_service(request) else await require_session(request)
    user = await service.visible_user(user_id, session)
    return reply(request, {"user": user_json(user)})


@bp.patch("/v1/users/<user_id:id>", ctx_auth="session|service", ctx_body=PatchUserBody,
          ctx_responses=answers({200: USER}))
async def patch_user(request: Request, user_id: str) -> HTTPResponse:
    """Change a user's name or e-mail address; a new address becomes unverified and a verification link goes to it.

    The user's own session (re-authenticated lately for a new address: 403 `ReauthRequired`), or the service credential.
    400 without `name` or `email`; 409 when the address has an account, or while the e-mail second factor is on; 429
    past the limits on e-mail changes."""
    body = read_body(request, PatchUserBody)
    if body.email is None and body.name is None:
        raise errors.InvalidInput("Give 'name' and/or 'email' to change.", details={"body": "name or email required"})
    session = None if is_service(request) else await require_session(request)
    user = await service.visible_user(user_id, session)
    name = service.check_name(body.name) if body.name is not None else None
    email = service.check_email(body.email) if body.email is not None else None
    if service.moves_email(user, email):
        if session is not None:
            await require_recent(session)
        per_ip = throttle.email_change_ip(request.app.ctx.settings.account_ip_limit)
        limits = _address_limits(request, per_ip, email)
        await throttle.counters(request).take((throttle.EMAIL_CHANGE_ACCOUNT, user.public_id), *limits)
    try:
        async with db.transaction() as conn:
            user = await service.change_user(conn, user, name=name, email=email,
                                             platform_url=request.app.ctx.settings.url_of("console"))
    except IntegrityError:
        raise service.email_taken() from None
    return reply(request, {"user": user_json(user)})


@bp.post("/v1/auth/verify", ctx_body=TokenBody)
async def verify_email(request: Request) -> HTTPResponse:
    """Verify an e-mail address with the token of the link sent to it.

    No credential. Invalid, expired and used tokens answer the same 400 `InvalidInput`."""
    body = read_body(request, TokenBody)
    async with db.transaction() as conn:
        user = await service.verify_email(conn, body.token)
    return reply(request, {"verified": True, "user": user_json(user)})
