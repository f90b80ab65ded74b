"""Users: POST /v1/users (and /v1/users/), GET and PATCH /v1/users/{id}.

Creating a user is public (self-registration); reading and changing one needs either that
user's own session or the service credential. Another person's id answers 404.

Both writes that send e-mail are limited per client address (ACCOUNT_IP_LIMIT an hour) and per
destination address (verification e-mails to one address); an e-mail change is also limited per
account. A change of e-mail on a session needs a recent re-authentication (app/identity/reauth.py;
the service credential is trusted: the platform asks its own), tells the old address, and voids
the reset links still pending (they were sent to the old address).
"""

from __future__ import annotations

from datetime import datetime, timezone

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.identity import credentials, crypto, errors, mail, passwords, reauth, throttle
from app.identity.bodies import SnakeBody, check_email, normalize_email, read_body
from app.identity.endpoints.auth import queue_verification
from app.identity.sessions import require_session, user_json
from models.identity import EmailFactor, EmailToken, EmailTokenPurpose, Session, User

bp = Blueprint("identity_users")


class CreateUserBody(SnakeBody):
    email: str
    password: str
    name: str = ""


class PatchUserBody(SnakeBody):
    email: str | None = None
    name: str | None = None


def _check_name(name: str) -> str:
    name = name.strip()
    if len(name) > 200:
        raise errors.InvalidInput("Field 'name': at most 200 characters.", details={"name": "at most 200 characters"})
    return name


def _address_limits(request: Request, per_ip: throttle.Limit, email: str) -> tuple[throttle.Pair, ...]:
    """Per client address (not for the service credential: the platform calls for many people
    from one address and limits them itself) and per destination address."""
    limits = ((throttle.MAIL_TO_ADDRESS, throttle.account_key(email)),)
    if not credentials.is_service(request):
        limits = ((per_ip, throttle.client_ip(request)),) + limits
    return limits


def _masked(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


async def _email_taken() -> errors.Conflict:
    return errors.Conflict("An account with this e-mail already exists.", details={"email": "already registered"})


@bp.post("/v1/users", strict_slashes=False)
async def create_user(request: Request) -> HTTPResponse:
    body = read_body(request, CreateUserBody)
    email = check_email(body.email)
    name = _check_name(body.name)
    passwords.check_policy(body.password, minimum=passwords.MIN_LENGTH, email=email, name=name)
    # Every attempt counts: each may create an account, cost a bcrypt hash and send an e-mail.
    await throttle.counters(request).take(*_address_limits(request, throttle.signup_ip(request), email))
    if await User.filter(email_key=normalize_email(email)).exists():
        raise await _email_taken()
    password_hash = await passwords.hash_password(body.password)
    try:
        async with in_transaction("identity") as conn:
            user = await User.create(public_id=crypto.public_id("usr"), email=email, email_key=normalize_email(email),
                                     name=name, password_hash=password_hash, using_db=conn)
            await queue_verification(conn, user, request)
    except IntegrityError:
        raise await _email_taken() from None
    return reply(request, {"user": user_json(user)}, status=201)


async def _visible_user(request: Request, user_id: str, session: Session | None = None) -> User:
    if credentials.is_service(request):
        user = await User.get_or_none(public_id=user_id)
    else:
        session = session or await require_session(request)
        user = session.user if session.user.public_id == user_id else None
    if user is None:
        raise errors.NotFound("No such user.")
    return user


@bp.get("/v1/users/<user_id:str>")
async def get_user(request: Request, user_id: str) -> HTTPResponse:
    user = await _visible_user(request, user_id)
    return reply(request, {"user": user_json(user)})


@bp.patch("/v1/users/<user_id:str>")
async def patch_user(request: Request, user_id: str) -> HTTPResponse:
    body = read_body(request, PatchUserBody)
    if body.email is None and body.name is None:
        raise errors.InvalidInput("Give 'name' and/or 'email' to change.", details={"body": "name or email required"})
    session = None if credentials.is_service(request) else await require_session(request)
    user = await _visible_user(request, user_id, session)
    name = _check_name(body.name) if body.name is not None else None
    email = check_email(body.email) if body.email is not None else None
    moving = email is not None and normalize_email(email) != user.email_key
    if moving:
        if session is not None:
            await reauth.require_recent(session)
        limits = _address_limits(request, throttle.email_change_ip(request), email)
        await throttle.counters(request).take((throttle.EMAIL_CHANGE_ACCOUNT, user.public_id), *limits)
    try:
        async with in_transaction("identity") as conn:
            user = await User.filter(id=user.id).using_db(conn).select_for_update().get()
            if name is not None:
                user.name = name
            if email is not None and normalize_email(email) != user.email_key:
                await _move_email(conn, request, user, email)
            elif email is not None:
                user.email = email  # the same address, written differently
            await user.save(using_db=conn)
    except IntegrityError:
        raise await _email_taken() from None
    return reply(request, {"user": user_json(user)})


async def _move_email(conn, request: Request, user: User, email: str) -> None:
    """Points the account at a new, unverified address: a verification goes to it, a notice to
    the old one, and reset links sent to the old one stop working."""
    if await EmailFactor.filter(user_id=user.id).using_db(conn).exists():
        # The address receives the login codes: moving it would move the second factor
        # without the password. The factor goes off first (POST /v1/2fa/disable).
        raise errors.Conflict(
            "This address receives the sign-in codes; turn the e-mail second factor off "
            "(with the password) before changing it.", details={"email": "second factor address"})
    if await User.filter(email_key=normalize_email(email)).using_db(conn).exists():
        raise await _email_taken()
    now = datetime.now(timezone.utc)
    await EmailToken.filter(user_id=user.id, purpose=EmailTokenPurpose.RESET, used_at=None,
                            expires_at__gt=now).using_db(conn).update(expires_at=now)
    old = user.email
    user.email, user.email_key, user.email_verified_at = email, normalize_email(email), None
    await mail.queue(conn, kind="email_changed", to=old, subject="The e-mail address of your Herald account changed",
                     text=f"The e-mail address of your Herald account was changed from {old} to {_masked(email)} "
                          f"at {now:%Y-%m-%d %H:%M} UTC.\nIf you did not do this, someone else may be using your "
                          "account: contact your Herald operator at once.",
                     data={"user_id": user.public_id})
    await user.save(using_db=conn)
    await queue_verification(conn, user, request)
