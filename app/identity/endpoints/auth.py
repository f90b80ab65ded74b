"""Sessions and login: /v1/auth/* (login, sessions, e-mail verification, password reset,
re-authentication) and /v1/2fa/check."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sanic import Blueprint, HTTPResponse, Request
from tortoise.transactions import in_transaction

from app.http.responses import no_content, reply
from app.identity import credentials, crypto, errors, keys, login, mail, passwords, reauth, throttle, twofactor
from app.identity.bodies import SnakeBody, check_email, normalize_email, read_body
from app.identity.sessions import open_session, require_session, revoke, revoke_all, session_json, user_json
from models.identity import EmailToken, EmailTokenPurpose, Session, User

bp = Blueprint("identity_auth")

RESET_TTL = timedelta(minutes=30)
VERIFY_TTL = timedelta(hours=48)


class LoginBody(SnakeBody):
    email: str
    password: str


class CheckBody(SnakeBody):
    ticket: str
    code: str | None = None
    recovery_code: str | None = None


class TokenBody(SnakeBody):
    token: str


class ResetRequestBody(SnakeBody):
    email: str


class ReauthBody(SnakeBody):
    password: str
    code: str | None = None
    recovery_code: str | None = None


class ResetConfirmBody(SnakeBody):
    token: str
    password: str
    code: str | None = None
    recovery_code: str | None = None


def session_answer(request: Request, session: Session, token: str, user: User) -> HTTPResponse:
    return reply(request, {
        "two_factor_required": False, "token": token, "token_type": "Bearer",
        "expires_at": session.expires_at.isoformat(), "session": session_json(session), "user": user_json(user),
    })


@bp.post("/v1/auth/login")
async def login_route(request: Request) -> HTTPResponse:
    body = read_body(request, LoginBody)
    user = await login.password_step(request, body.email, body.password)
    if (challenge := await login.challenge(request, user)) is not None:
        return reply(request, {"two_factor_required": True, "token": None, **challenge})
    async with in_transaction("identity") as conn:
        session, token = await open_session(conn, user, request, "password")
    return session_answer(request, session, token, user)


@bp.post("/v1/2fa/check")
async def two_factor_check(request: Request) -> HTTPResponse:
    body = read_body(request, CheckBody)
    session, token, user = await login.second_step(request, body.ticket, body.code, body.recovery_code)
    return session_answer(request, session, token, user)


@bp.get("/v1/auth/validate")
async def validate(request: Request) -> HTTPResponse:
    session = await require_session(request)
    return reply(request, {"valid": True, "user": user_json(session.user), "session": session_json(session)})


@bp.post("/v1/auth/logout")
async def logout(request: Request) -> HTTPResponse:
    session = await require_session(request)
    async with in_transaction("identity") as conn:
        await revoke(conn, [session.id])
    return no_content()


@bp.get("/v1/auth/sessions")
async def list_sessions(request: Request) -> HTTPResponse:
    current = await require_session(request)
    now = datetime.now(timezone.utc)
    rows = await Session.filter(user_id=current.user_id, revoked_at=None, expires_at__gt=now,
                                idle_expires_at__gt=now).order_by("-created_at")
    return reply(request, {"sessions": [session_json(row, current) for row in rows]})


@bp.delete("/v1/auth/sessions/<session_id:str>")
async def delete_session(request: Request, session_id: str) -> HTTPResponse:
    current = await require_session(request)
    target = await Session.get_or_none(public_id=session_id, user_id=current.user_id)
    if target is None:
        raise errors.NotFound("No such session.")
    async with in_transaction("identity") as conn:
        await revoke(conn, [target.id])
    return no_content()


# -- e-mail verification -------------------------------------------------------------------------

async def queue_verification(conn, user: User, request: Request) -> None:
    token = crypto.new_token("hev_")
    await EmailToken.create(user=user, purpose=EmailTokenPurpose.VERIFY, token_hash=crypto.digest(token),
                            email=user.email, expires_at=datetime.now(timezone.utc) + VERIFY_TTL, using_db=conn)
    link = f"{request.app.ctx.settings.url_of('platform')}/verify-email?token={token}"
    await mail.queue(conn, kind="verify", to=user.email, subject="Confirm your e-mail address",
                     text=f"Confirm your e-mail address for Herald: {link}\nThe link works for 48 hours.",
                     data={"token": token, "link": link, "user_id": user.public_id})


INVALID_LINK = "The link is invalid or has expired."


async def consume_email_token(conn, token: str, purpose: EmailTokenPurpose) -> EmailToken | None:
    row = await EmailToken.filter(token_hash=crypto.digest(token), purpose=purpose, used_at=None,
                                  expires_at__gt=datetime.now(timezone.utc)) \
        .using_db(conn).select_for_update().first()
    if row is None:
        return None
    await EmailToken.filter(id=row.id).using_db(conn).update(used_at=datetime.now(timezone.utc))
    return row


@bp.post("/v1/auth/verify")
async def verify_email(request: Request) -> HTTPResponse:
    body = read_body(request, TokenBody)
    async with in_transaction("identity") as conn:
        row = await consume_email_token(conn, body.token, EmailTokenPurpose.VERIFY)
        user = await User.filter(id=row.user_id).using_db(conn).select_for_update().first() if row else None
        # A token sent to an address the user no longer has proves nothing.
        if row is None or user is None or user.email_key != normalize_email(row.email):
            raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
        if user.email_verified_at is None:
            user.email_verified_at = datetime.now(timezone.utc)
            await user.save(using_db=conn, update_fields=["email_verified_at", "updated_at"])
    return reply(request, {"verified": True, "user": user_json(user)})


# -- password reset ------------------------------------------------------------------------------

@bp.post("/v1/auth/password/reset")
async def request_reset(request: Request) -> HTTPResponse:
    body = read_body(request, ResetRequestBody)
    email = check_email(body.email)
    limits = ((throttle.RECOVERY_IP, throttle.client_ip(request)),
              (throttle.RECOVERY_ACCOUNT, throttle.account_key(email)))
    await throttle.counters(request).take(*limits)  # every request counts: each may send an e-mail
    user = await User.get_or_none(email_key=normalize_email(email))
    if user is not None:
        token = crypto.new_token("hpr_")
        async with in_transaction("identity") as conn:
            await EmailToken.create(user=user, purpose=EmailTokenPurpose.RESET, token_hash=crypto.digest(token),
                                    email=user.email, expires_at=datetime.now(timezone.utc) + RESET_TTL,
                                    using_db=conn)
            link = f"{request.app.ctx.settings.url_of('platform')}/reset-password?token={token}"
            # The link is in the body only: subjects end up in message lists, webhooks and logs.
            await mail.queue(conn, kind="reset", to=user.email, subject="Reset your password",
                             text=f"Reset your Herald password: {link}\nThe link works for 30 minutes. "
                                  "If you did not ask for this, ignore this e-mail.",
                             data={"token": token, "link": link, "user_id": user.public_id})
    # The same answer whether or not the address has an account.
    return reply(request, {"accepted": True}, status=202)


@bp.post("/v1/auth/password/reset/confirm")
async def confirm_reset(request: Request) -> HTTPResponse:
    body = read_body(request, ResetConfirmBody)
    ip = throttle.client_ip(request)
    async with throttle.failures(request, (throttle.RECOVERY_IP, ip), counted=(errors.InvalidInput,)):
        row = await EmailToken.get_or_none(token_hash=crypto.digest(body.token), purpose=EmailTokenPurpose.RESET,
                                           used_at=None, expires_at__gt=datetime.now(timezone.utc))
        if row is None:
            raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
    user = await User.get(id=row.user_id)
    passwords.check_policy(body.password, minimum=passwords.RESET_MIN_LENGTH, email=user.email, name=user.name)
    factor = await twofactor.confirmed_factor(user)
    if factor is not None and not body.code and not body.recovery_code:
        raise errors.TwoFactorMissing()
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id), (throttle.TWO_FACTOR_IP, ip)) if factor else ()
    new_hash = await passwords.hash_password(body.password)
    async with throttle.failures(request, *limits, counted=(errors.TwoFactorFailed,)):
        async with in_transaction("identity") as conn:
            if await consume_email_token(conn, body.token, EmailTokenPurpose.RESET) is None:
                raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
            if factor is not None:
                # TwoFactorFailed rolls the transaction back: the link token stays usable.
                await twofactor.check_second_factor(conn, user, factor, code=body.code,
                                                    recovery_code=body.recovery_code)
            update = {"password_hash": new_hash}
            if normalize_email(row.email) == user.email_key and user.email_verified_at is None:
                update["email_verified_at"] = datetime.now(timezone.utc)  # the mailbox was just proved
            await User.filter(id=user.id).using_db(conn).update(**update)
            await revoke_all(conn, user)
    return reply(request, {"reset": True})


# -- re-authentication ---------------------------------------------------------------------------

@bp.post("/v1/auth/reauth")
async def reauthenticate(request: Request) -> HTTPResponse:
    """Presents the password (and the app code when the account has one) on this session again,
    so that e-mail changes and new passkeys are accepted for the next reauth.MAX_AGE."""
    session = await require_session(request)
    body = read_body(request, ReauthBody)
    user = await login.password_step(request, session.user.email, body.password)
    factor = await twofactor.confirmed_factor(user)
    if factor is not None and not body.code and not body.recovery_code:
        raise errors.TwoFactorMissing()
    limits = ((throttle.TWO_FACTOR_ACCOUNT, user.public_id),
              (throttle.TWO_FACTOR_IP, throttle.client_ip(request))) if factor else ()
    async with throttle.failures(request, *limits, counted=(errors.TwoFactorFailed,)):
        async with in_transaction("identity") as conn:
            if factor is not None:
                await twofactor.check_second_factor(conn, user, factor, code=body.code,
                                                    recovery_code=body.recovery_code)
            await reauth.mark(conn, session)
    return reply(request, {"reauthenticated_at": session.reauthenticated_at.isoformat(),
                           "reauth_expires_at": reauth.expires_at(session).isoformat()})


@bp.post("/v1/auth/keys/rotate")
async def rotate_keys(request: Request) -> HTTPResponse:
    credentials.require_service(request)
    key = await keys.rotate()
    return reply(request, {"kid": key.kid, "status": key.status.value}, status=201)
