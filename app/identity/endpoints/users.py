"""Users: POST /v1/users (and /v1/users/), GET and PATCH /v1/users/{id}.

Creating a user is public (self-registration); reading and changing one needs either that
user's own session or the service credential. Another person's id answers 404.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from tortoise.exceptions import IntegrityError
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.identity import credentials, crypto, errors, passwords
from app.identity.bodies import SnakeBody, check_email, normalize_email, read_body
from app.identity.endpoints.auth import queue_verification
from app.identity.sessions import require_session, user_json
from models.identity import User
from models.identity.factors import EmailFactor

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


async def _email_taken() -> errors.Conflict:
    return errors.Conflict("An account with this e-mail already exists.", details={"email": "already registered"})


@bp.post("/v1/users", strict_slashes=False)
async def create_user(request: Request) -> HTTPResponse:
    body = read_body(request, CreateUserBody)
    email = check_email(body.email)
    name = _check_name(body.name)
    passwords.check_policy(body.password, minimum=passwords.MIN_LENGTH, email=email, name=name)
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


async def _visible_user(request: Request, user_id: str) -> User:
    if credentials.is_service(request):
        user = await User.get_or_none(public_id=user_id)
    else:
        session = await require_session(request)
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
    user = await _visible_user(request, user_id)
    try:
        async with in_transaction("identity") as conn:
            user = await User.filter(id=user.id).using_db(conn).select_for_update().get()
            if body.name is not None:
                user.name = _check_name(body.name)
            changed_email = False
            if body.email is not None:
                email = check_email(body.email)
                if normalize_email(email) != user.email_key:
                    if await EmailFactor.filter(user_id=user.id).using_db(conn).exists():
                        # The address receives the login codes: moving it would move the second factor
                        # without the password. The factor goes off first (POST /v1/2fa/disable).
                        raise errors.Conflict(
                            "This address receives the sign-in codes; turn the e-mail second factor off "
                            "(with the password) before changing it.", details={"email": "second factor address"})
                    if await User.filter(email_key=normalize_email(email)).using_db(conn).exists():
                        raise await _email_taken()
                    user.email_key = normalize_email(email)
                    user.email_verified_at = None
                    changed_email = True
                user.email = email
            await user.save(using_db=conn)
            if changed_email:
                await queue_verification(conn, user, request)
    except IntegrityError:
        raise await _email_taken() from None
    return reply(request, {"user": user_json(user)})
