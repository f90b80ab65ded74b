"""Passkeys (WebAuthn, py_webauthn 3): registration and login ceremonies.

Each ceremony has a server-side challenge row (``pkc_<hex>``): single use, :data:`CHALLENGE_TTL`
long; an unknown, used or expired one answers 400 ``DesafioExpirado``. The RP id is
``WEBAUTHN_RP_ID``, else the host of the identity server's URL; accepted origins are the identity
server's, the platform's and the console's (the dashboard and the console run the ceremony in the
browser and forward it): :func:`relying_party`. User
verification is required: a passkey is a full login on its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from tortoise.backends.base.client import BaseDBAsyncClient
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

from app.identity import errors, tokens
from kit.settings import Settings
from models.identity import PasskeyChallenge, PasskeyCredential, User

CHALLENGE_TTL = timedelta(minutes=5)
RP_NAME = "Herald"


@dataclass(frozen=True)
class RelyingParty:
    id: str
    origins: tuple[str, ...]


def relying_party(settings: Settings) -> RelyingParty:
    origins = []
    for system in ("identity", "platform", "console"):
        parts = urlsplit(settings.url_of(system))
        origins.append(f"{parts.scheme}://{parts.netloc}")
    return RelyingParty(settings.webauthn_rp_id or urlsplit(settings.url_of("identity")).hostname, tuple(origins))


async def _new_challenge(conn: BaseDBAsyncClient, purpose: str, challenge: bytes, user: User | None) -> str:
    row = await PasskeyChallenge.create(public_id=tokens.public_id("pkc"), purpose=purpose, user=user,
                                        challenge=challenge, expires_at=datetime.now(timezone.utc) + CHALLENGE_TTL,
                                        using_db=conn)
    return row.public_id


async def take_challenge(conn: BaseDBAsyncClient, challenge_id: str, purpose: str,
                         user: User | None = None) -> PasskeyChallenge:
    """Uses up a live challenge of ``purpose`` (of ``user`` when given); 400 ``DesafioExpirado``
    otherwise (a challenge of someone else is left as it was)."""
    if len(challenge_id) > 40:  # longer than the column: names no challenge (the lookup would fail, a 500)
        raise errors.ChallengeExpired()
    now = datetime.now(timezone.utc)
    row = await PasskeyChallenge.filter(public_id=challenge_id, purpose=purpose).using_db(conn) \
        .select_for_update().first()
    if row is None or row.used_at is not None or row.expires_at <= now:
        raise errors.ChallengeExpired()
    if user is not None and row.user_id != user.id:
        raise errors.ChallengeExpired()
    await PasskeyChallenge.filter(id=row.id).using_db(conn).update(used_at=now)
    return row


async def begin_registration(conn: BaseDBAsyncClient, user: User, rp: RelyingParty) -> tuple[str, dict]:
    if user.webauthn_handle is None:
        user.webauthn_handle = bytes_to_base64url(generate_user_handle())
        await User.filter(id=user.id, webauthn_handle=None).using_db(conn).update(
            webauthn_handle=user.webauthn_handle)
        user = await User.get(id=user.id).using_db(conn)
    existing = await PasskeyCredential.filter(user=user).using_db(conn)
    options = generate_registration_options(
        rp_id=rp.id, rp_name=RP_NAME, user_name=user.email, user_display_name=user.name or user.email,
        user_id=tokens.unb64url(user.webauthn_handle),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=tokens.unb64url(c.credential_id)) for c in existing],
        authenticator_selection=AuthenticatorSelectionCriteria(resident_key=ResidentKeyRequirement.PREFERRED,
                                                               user_verification=UserVerificationRequirement.REQUIRED),
        timeout=int(CHALLENGE_TTL.total_seconds() * 1000),
    )
    challenge_id = await _new_challenge(conn, "register", options.challenge, user)
    return challenge_id, json.loads(options_to_json(options))


async def finish_registration(conn: BaseDBAsyncClient, user: User, challenge: PasskeyChallenge, credential: dict,
                              name: str, rp: RelyingParty) -> PasskeyCredential:
    """The new passkey of ``user`` from the authenticator's answer to ``challenge`` (used up)."""
    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=bytes(challenge.challenge), expected_rp_id=rp.id,
            expected_origin=list(rp.origins), require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise errors.PasskeyRejected(f"The passkey could not be registered: {exc}") from None
    transports = (credential.get("response") or {}).get("transports") or []
    return await PasskeyCredential.create(
        public_id=tokens.public_id("pky"), user=user, credential_id=bytes_to_base64url(verified.credential_id),
        public_key=verified.credential_public_key, sign_count=verified.sign_count, transports=transports,
        name=name[:100], backed_up=verified.credential_backed_up, using_db=conn)


async def begin_login(conn: BaseDBAsyncClient, email: str | None, rp: RelyingParty, *, user: User | None = None,
                      purpose: str = "login") -> tuple[str, dict]:
    """A login ceremony; with ``email``, limited to that account's passkeys (omit it for a
    discoverable credential). With ``user`` (a re-authentication, ``purpose`` "reauth"): that
    person's passkeys, and the challenge is theirs alone."""
    allow = []
    if user is not None:
        allow = [PublicKeyCredentialDescriptor(id=tokens.unb64url(c.credential_id))
                 for c in await PasskeyCredential.filter(user=user).using_db(conn)]
    elif email:
        user = await User.get_or_none(email_key=email.strip().casefold())
        if user is not None:
            allow = [PublicKeyCredentialDescriptor(id=tokens.unb64url(c.credential_id))
                     for c in await PasskeyCredential.filter(user=user)]
    options = generate_authentication_options(rp_id=rp.id, allow_credentials=allow,
                                              user_verification=UserVerificationRequirement.REQUIRED,
                                              timeout=int(CHALLENGE_TTL.total_seconds() * 1000))
    challenge_id = await _new_challenge(conn, purpose, options.challenge, user)
    return challenge_id, json.loads(options_to_json(options))


async def finish_login(conn: BaseDBAsyncClient, challenge: PasskeyChallenge, credential: str | dict,
                       rp: RelyingParty) -> User:
    """The user whose passkey answered ``challenge`` (used up); 401 ``PasskeyRecusada`` otherwise.
    The sign counter is checked and stored."""
    try:
        parsed = parse_authentication_credential_json(credential)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise errors.PasskeyRejected() from None
    row = await PasskeyCredential.get_or_none(credential_id=bytes_to_base64url(parsed.raw_id)) \
        .using_db(conn).select_related("user")
    if row is None:
        raise errors.PasskeyRejected()
    try:
        verified = verify_authentication_response(
            credential=parsed, expected_challenge=bytes(challenge.challenge), expected_rp_id=rp.id,
            expected_origin=list(rp.origins), credential_public_key=bytes(row.public_key),
            credential_current_sign_count=row.sign_count, require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError):
        raise errors.PasskeyRejected() from None
    await PasskeyCredential.filter(id=row.id).using_db(conn).update(sign_count=verified.new_sign_count,
                                                                    last_used_at=datetime.now(timezone.utc))
    return row.user


async def passkeys_of(user_id: int) -> list[PasskeyCredential]:
    return await PasskeyCredential.filter(user_id=user_id).order_by("created_at")


async def rename_passkey(conn: BaseDBAsyncClient, user_id: int, passkey_id: str, name: str) -> PasskeyCredential:
    """Gives one of the user's passkeys a new name (a label only: no way in changes); 404 for an
    unknown one or another person's."""
    name = name.strip()
    if not name:
        raise errors.InvalidInput("Field 'name': must not be empty.", details={"name": "must not be empty"})
    row = await PasskeyCredential.filter(public_id=passkey_id, user_id=user_id).using_db(conn).first()
    if row is None:
        raise errors.NotFound("No such passkey.")
    row.name = name[:100]
    await row.save(using_db=conn, update_fields=["name"])
    return row


async def delete_passkey(conn: BaseDBAsyncClient, user_id: int, passkey_id: str) -> None:
    """Removes one of the user's passkeys; 404 for an unknown one or another person's."""
    deleted = await PasskeyCredential.filter(public_id=passkey_id, user_id=user_id).using_db(conn).delete()
    if not deleted:
        raise errors.NotFound("No such passkey.")

