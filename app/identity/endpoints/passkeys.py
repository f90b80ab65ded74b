"""Passkeys: /v1/passkeys/register/options, /v1/passkeys/register, /v1/passkeys/login/options,
/v1/passkeys/login (public), GET /v1/passkeys, DELETE /v1/passkeys/{id} (needs the password).

Adding a passkey adds a way in: both registration steps need a recent re-authentication of the
session (app/identity/reauth.py), so a stolen session token cannot plant one."""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http.responses import reply
from app.identity import errors, login, passkeys, reauth
from app.identity.bodies import SnakeBody, read_body
from app.identity.endpoints.auth import session_answer
from app.identity.sessions import open_session, require_session
from models.identity import PasskeyCredential

bp = Blueprint("identity_passkeys")


class EmptyBody(SnakeBody):
    pass


class LoginOptionsBody(SnakeBody):
    email: str | None = None


class FinishBody(SnakeBody):
    challenge_id: str
    credential: dict[str, Any]
    name: str = ""


class FinishLoginBody(SnakeBody):
    challenge_id: str
    credential: dict[str, Any]


class PasswordBody(SnakeBody):
    password: str


def passkey_json(row: PasskeyCredential) -> dict:
    return {"id": row.public_id, "name": row.name, "created_at": row.created_at.isoformat(),
            "last_used_at": row.last_used_at.isoformat() if row.last_used_at else None,
            "backed_up": row.backed_up}


def _optional_body(request: Request, model):
    return read_body(request, model) if (request.body or b"").strip() else model()


@bp.post("/v1/passkeys/register/options")
async def register_options(request: Request) -> HTTPResponse:
    session = await require_session(request)
    _optional_body(request, EmptyBody)
    await reauth.require_recent(session)
    challenge_id, options = await passkeys.begin_registration(request, session.user)
    return reply(request, {"challenge_id": challenge_id, "options": options})


@bp.post("/v1/passkeys/register")
async def register(request: Request) -> HTTPResponse:
    session = await require_session(request)
    body = read_body(request, FinishBody)
    await reauth.require_recent(session)
    row = await passkeys.finish_registration(request, session.user, body.challenge_id, body.credential, body.name)
    return reply(request, {"passkey": passkey_json(row)}, status=201)


@bp.post("/v1/passkeys/login/options")
async def login_options(request: Request) -> HTTPResponse:
    body = _optional_body(request, LoginOptionsBody)
    challenge_id, options = await passkeys.begin_login(request, body.email)
    return reply(request, {"challenge_id": challenge_id, "options": options})


@bp.post("/v1/passkeys/login")
async def passkey_login(request: Request) -> HTTPResponse:
    body = read_body(request, FinishLoginBody)
    user = await passkeys.finish_login(request, body.challenge_id, body.credential)
    async with in_transaction("identity") as conn:
        session, token = await open_session(conn, user, request, "passkey")
    return session_answer(request, session, token, user)


@bp.get("/v1/passkeys")
async def list_passkeys(request: Request) -> HTTPResponse:
    session = await require_session(request)
    rows = await PasskeyCredential.filter(user_id=session.user_id).order_by("created_at")
    return reply(request, {"passkeys": [passkey_json(row) for row in rows]})


@bp.delete("/v1/passkeys/<passkey_id:str>")
async def delete_passkey(request: Request, passkey_id: str) -> HTTPResponse:
    session = await require_session(request)
    body = read_body(request, PasswordBody)
    await login.password_step(request, session.user.email, body.password)
    deleted = await PasskeyCredential.filter(public_id=passkey_id, user_id=session.user_id).delete()
    if not deleted:
        raise errors.NotFound("No such passkey.")
    return reply(request, {"deleted": True})
