"""Passkeys over the JSON API: ``/v1/passkeys/register/options``, ``/v1/passkeys/register``,
``/v1/passkeys/login/options``, ``/v1/passkeys/login`` (public), ``GET /v1/passkeys``,
``PATCH /v1/passkeys/{id}`` (``{name}``: a new name), ``DELETE /v1/passkeys/{id}`` (the password in
the body, or else a recent re-authentication).

Adding a passkey adds a way in: both registration steps need a recent re-authentication of the
session (session/service.py), so a stolen session token cannot plant one."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.responses import reply
from app.http.openapi import answers
from app.identity import db
from app.identity.gate import throttle
from app.identity.gate.bodies import read_body, read_optional_body
from app.identity.gate.credentials import require_session
from app.identity.login import steps
from app.identity.passkey import service
from app.identity.passkey.schemas import (EmptyBody, FinishBody, FinishLoginBody, LoginOptionsBody, PasswordBody,
                                          RenameBody)
from app.identity.passkey.views import passkey_json
from app.identity.reauth.service import require_recent
from app.identity.session.service import open_session
from app.identity.session.views import LOGIN, login_answer
from models.identity import EventKind
from models.identity.events import record

bp = Blueprint("identity_passkey")


def relying_party(request: Request) -> service.RelyingParty:
    return service.relying_party(request.app.ctx.settings)


@bp.post("/v1/passkeys/register/options", ctx_auth="session", ctx_optional_body=EmptyBody)
async def register_options(request: Request) -> HTTPResponse:
    """Start adding a passkey: a `challenge_id` and the WebAuthn options for `navigator.credentials.create`.

    The person's own session, re-authenticated lately (403 `ReauthRequired` otherwise)."""
    session = await require_session(request)
    read_optional_body(request, EmptyBody)
    await require_recent(session)
    async with db.transaction() as conn:
        challenge_id, options = await service.begin_registration(conn, session.user, relying_party(request))
    return reply(request, {"challenge_id": challenge_id, "options": options})


@bp.post("/v1/passkeys/register", ctx_auth="session", ctx_body=FinishBody, ctx_responses=answers({201: None}))
async def register(request: Request) -> HTTPResponse:
    """Add a passkey: the browser's new credential for the challenge of `POST /v1/passkeys/register/options`.

    The person's own session, re-authenticated lately (403 `ReauthRequired` otherwise). 201 `{passkey}`."""
    session = await require_session(request)
    body = read_body(request, FinishBody)
    await require_recent(session)
    async with db.transaction() as conn:
        challenge = await service.take_challenge(conn, body.challenge_id, "register", session.user)
    async with db.transaction() as conn:
        row = await service.finish_registration(conn, session.user, challenge, body.credential, body.name,
                                                relying_party(request))
        caller = throttle.caller(request)
        await record(conn, session.user_id, EventKind.PASSKEY_ADDED, ip=caller.ip, user_agent=caller.user_agent,
                     passkey=row.public_id)
    return reply(request, {"passkey": passkey_json(row)}, status=201)


@bp.post("/v1/passkeys/login/options", ctx_optional_body=LoginOptionsBody)
async def login_options(request: Request) -> HTTPResponse:
    """Start a passkey login: a `challenge_id` and the WebAuthn options for `navigator.credentials.get`.

    No credential. Give `email`, or omit it for a discoverable credential."""
    body = read_optional_body(request, LoginOptionsBody)
    async with db.transaction() as conn:
        challenge_id, options = await service.begin_login(conn, body.email, relying_party(request))
    return reply(request, {"challenge_id": challenge_id, "options": options})


@bp.post("/v1/passkeys/login", ctx_body=FinishLoginBody, ctx_responses=answers({200: LOGIN}))
async def passkey_login(request: Request) -> HTTPResponse:
    """Log in with a passkey: the browser's credential for the challenge of `POST /v1/passkeys/login/options`.

    No credential. Answers the session, as a login. 401 `PasskeyRejected` when the credential does not answer the
    challenge; 400 `ChallengeExpired` for a challenge used or expired; 429 past the throttle."""
    body = read_body(request, FinishLoginBody)
    user = await steps.passkey_step(relying_party(request), body.challenge_id, body.credential)
    caller = throttle.caller(request)
    async with db.transaction() as conn:
        session, token = await open_session(conn, user, user_agent=caller.user_agent, ip=caller.ip, method="passkey")
    return reply(request, login_answer(session, token, user))


@bp.get("/v1/passkeys", ctx_auth="session")
async def list_passkeys(request: Request) -> HTTPResponse:
    """List the person's passkeys.

    The person's own session."""
    session = await require_session(request)
    return reply(request, {"passkeys": [passkey_json(row) for row in await service.passkeys_of(session.user_id)]})


@bp.patch("/v1/passkeys/<passkey_id:id>", ctx_auth="session", ctx_body=RenameBody)
async def rename_passkey(request: Request, passkey_id: str) -> HTTPResponse:
    """Renames a passkey. A name is a label the person tells their passkeys apart by: it adds no way
    in and removes none, so unlike adding or removing one it needs no recent re-authentication."""
    session = await require_session(request)
    body = read_body(request, RenameBody)
    async with db.transaction() as conn:
        row = await service.rename_passkey(conn, session.user_id, passkey_id, body.name)
    return reply(request, {"passkey": passkey_json(row)})


@bp.delete("/v1/passkeys/<passkey_id:id>", ctx_auth="session", ctx_optional_body=PasswordBody)
async def delete_passkey(request: Request, passkey_id: str) -> HTTPResponse:
    """Remove a passkey.

    Removes a passkey: with the password, or (no body) on a session re-authenticated lately, as
    the console asks it ("Confirm it is you") for every guarded write."""
    session = await require_session(request)
    body = read_optional_body(request, PasswordBody)
    caller = throttle.caller(request)
    if body.password:
        await steps.password_step(caller, session.user.email, body.password)
    else:
        await require_recent(session)
    async with db.transaction() as conn:
        await service.delete_passkey(conn, session.user_id, passkey_id)
        await record(conn, session.user_id, EventKind.PASSKEY_REMOVED, ip=caller.ip, user_agent=caller.user_agent,
                     passkey=passkey_id)
    return reply(request, {"deleted": True})
