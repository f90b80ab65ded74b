"""Passkeys (WebAuthn, py_webauthn 3): registration and login ceremonies.

Each ceremony has a server-side challenge row (``pkc_<hex>``): single use, :data:`CHALLENGE_TTL`
long; an unknown, used or expired one answers 400 ``DesafioExpirado``. The RP id is the host of
the identity server's URL; accepted origins are the identity server's and the platform's
(the dashboard runs the ceremony in the browser and forwards it). User verification is
required: a passkey is a full login on its own.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from sanic import Request
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.transactions import in_transaction
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url, generate_user_handle, parse_authentication_credential_json
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.identity import crypto, errors
from models.identity import PasskeyChallenge, PasskeyCredential, User

CHALLENGE_TTL = timedelta(minutes=5)
RP_NAME = "Herald"


def rp_id(request: Request) -> str:
    return urlsplit(request.app.ctx.settings.url_of("identity")).hostname


def origins(request: Request) -> list[str]:
    settings = request.app.ctx.settings
    found = []
    for system in ("identity", "platform"):
        parts = urlsplit(settings.url_of(system))
        found.append(f"{parts.scheme}://{parts.netloc}")
    return found


async def _new_challenge(purpose: str, challenge: bytes, user: User | None) -> str:
    row = await PasskeyChallenge.create(public_id=crypto.public_id("pkc"), purpose=purpose, user=user,
                                        challenge=challenge, expires_at=datetime.now(timezone.utc) + CHALLENGE_TTL)
    return row.public_id


async def _take_challenge(conn: BaseDBAsyncClient, challenge_id: str, purpose: str) -> PasskeyChallenge:
    now = datetime.now(timezone.utc)
    row = await PasskeyChallenge.filter(public_id=challenge_id, purpose=purpose).using_db(conn) \
        .select_for_update().first()
    if row is None or row.used_at is not None or row.expires_at <= now:
        raise errors.DesafioExpirado()
    await PasskeyChallenge.filter(id=row.id).using_db(conn).update(used_at=now)
    return row


async def begin_registration(request: Request, user: User) -> tuple[str, dict]:
    if user.webauthn_handle is None:
        user.webauthn_handle = bytes_to_base64url(generate_user_handle())
        await User.filter(id=user.id, webauthn_handle=None).update(webauthn_handle=user.webauthn_handle)
        user = await User.get(id=user.id)
    existing = await PasskeyCredential.filter(user=user)
    options = generate_registration_options(
        rp_id=rp_id(request), rp_name=RP_NAME, user_name=user.email, user_display_name=user.name or user.email,
        user_id=crypto.unb64url(user.webauthn_handle),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=crypto.unb64url(c.credential_id)) for c in existing],
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.PREFERRED,
                                                               user_verification=UserVerificationRequirement.REQUIRED),
        timeout=int(CHALLENGE_TTL.total_seconds() * 1000),
    )
    challenge_id = await _new_challenge("register", options.challenge, user)
    return challenge_id, json.loads(options_to_json(options))


async def finish_registration(request: Request, user: User, challenge_id: str, credential: dict,
                              name: str) -> PasskeyCredential:
    async with in_transaction("identity") as conn:
        challenge = await _take_challenge(conn, challenge_id, "register")
        if challenge.user_id != user.id:
            raise errors.DesafioExpirado()
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=bytes(challenge.challenge), expected_rp_id=rp_id(request),
            expected_origin=origins(request), require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise errors.PasskeyRecusada(f"The passkey could not be registered: {exc}") from None
    transports = (credential.get("response") or {}).get("transports") or []
    return await PasskeyCredential.create(
        public_id=crypto.public_id("pky"), user=user, credential_id=bytes_to_base64url(verified.credential_id),
        public_key=verified.credential_public_key, sign_count=verified.sign_count, transports=transports,
        name=name[:100], backed_up=verified.credential_backed_up)


async def begin_login(request: Request, email: str | None) -> tuple[str, dict]:
    allow = []
    if email:
        user = await User.get_or_none(email_key=email.strip().casefold())
        if user is not None:
            allow = [PublicKeyCredentialDescriptor(id=crypto.unb64url(c.credential_id))
                     for c in await PasskeyCredential.filter(user=user)]
    options = generate_authentication_options(rp_id=rp_id(request), allow_credentials=allow,
                                              user_verification=UserVerificationRequirement.REQUIRED,
                                              timeout=int(CHALLENGE_TTL.total_seconds() * 1000))
    challenge_id = await _new_challenge("login", options.challenge, None)
    return challenge_id, json.loads(options_to_json(options))


async def finish_login(request: Request, challenge_id: str, credential: str | dict) -> User:
    async with in_transaction("identity") as conn:
        challenge = await _take_challenge(conn, challenge_id, "login")
    try:
        parsed = parse_authentication_credential_json(credential)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise errors.PasskeyRecusada() from None
    row = await PasskeyCredential.get_or_none(credential_id=bytes_to_base64url(parsed.raw_id)).select_related("user")
    if row is None:
        raise errors.PasskeyRecusada()
    try:
        verified = verify_authentication_response(
            credential=parsed, expected_challenge=bytes(challenge.challenge), expected_rp_id=rp_id(request),
            expected_origin=origins(request), credential_public_key=bytes(row.public_key),
            credential_current_sign_count=row.sign_count, require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise errors.PasskeyRecusada() from None
    await PasskeyCredential.filter(id=row.id).update(sign_count=verified.new_sign_count,
                                                     last_used_at=datetime.now(timezone.utc))
    return row.user
