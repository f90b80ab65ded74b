"""Re-authentication ("sudo mode", as GitHub, Stripe and Google do it): the writes that could hand
an account to someone else need a credential presented on *this* session within
:data:`MAX_AGE`. A stolen session token alone is then not enough.

A session records when (``reauthenticated_at``) and how (``reauth_method``) credentials were last
presented on it: at login (its method, e.g. ``password+totp``), then at each re-authentication.
Four methods, each a full proof on its own:

- ``password``: the password, and the app code (or a recovery code) when the account has an app
  factor (the password alone must not unlock what the factor protects);
- ``totp``: a code of the person's confirmed authenticator app (or a recovery code, recorded as
  such: it satisfies what a password does, not what an app code does);
- ``email_otp``: a 6-digit code e-mailed to one of the person's *verified* addresses, chosen by
  id (:func:`start_email_otp`); it lives 10 minutes, works once, burns after 5 wrong tries;
- ``passkey``: a WebAuthn assertion of one of the person's own passkeys (:func:`start_passkey`).

Each guarded write names the methods it accepts (:data:`ANY`, or :data:`SECOND_FACTOR` for
generating recovery codes); a session whose last proof is older, or of another method, gets 403
``ReauthRequired`` whose details say which methods are accepted, which the person can use now
(``available`` and a ``reason`` when not) and, for ``email_otp``, where the code can go (masked
addresses). The login's own proof counts: ``password+totp`` satisfies ``password`` and ``totp``.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors
from app.identity.address import service as addresses
from app.identity.passkey import service as passkeys
from app.identity.session.service import last_presented, mark_reauthenticated, now
from app.identity.twofactor import service as twofactor
from app.identity.user.service import masked
from models.identity import EventKind, PasskeyChallenge, PasskeyCredential, Session, User
from models.identity.events import record

MAX_AGE = timedelta(minutes=10)
METHODS = ("password", "totp", "email_otp", "passkey")
ANY = METHODS
SECOND_FACTOR = ("totp", "email_otp")
# What each step of a login or re-authentication proves (a recovery code stands in for a password's
# companion, not for the app itself).
PROVES = {"password": "password", "totp": "totp", "email_code": "email_otp", "email_otp": "email_otp",
          "passkey": "passkey"}
EMAIL_NONCE_PREFIX = "r"


def proven(session: Session) -> set[str]:
    """The methods the session's last proof satisfies."""
    how = session.reauth_method or session.method or ""
    return {PROVES[part] for part in how.split("+") if part in PROVES}


def expires_at(session: Session):
    return last_presented(session) + MAX_AGE


def is_recent(session: Session, accepted: tuple[str, ...] = ANY) -> bool:
    return now() < expires_at(session) and bool(proven(session) & set(accepted))


async def methods(user: User) -> list[dict]:
    """Which methods the person can use now, and why not when they cannot."""
    has_app = await twofactor.confirmed_factor(user) is not None
    verified = await addresses.verified_addresses(user)
    has_passkey = await PasskeyCredential.filter(user_id=user.id).exists()
    found = {"password": (True, None),
             "totp": (has_app, None if has_app else "no authenticator app is confirmed on the account"),
             "email_otp": (bool(verified), None if verified else "no verified e-mail address"),
             "passkey": (has_passkey, None if has_passkey else "no passkey is registered")}
    return [{"method": name, "available": ok, "reason": why} for name, (ok, why) in found.items()]


async def options(user: User, accepted: tuple[str, ...]) -> dict:
    """What a person must present: accepted methods, their availability, e-mail destinations."""
    body: dict = {"accepted": list(accepted),
                  "methods": [row for row in await methods(user) if row["method"] in accepted],
                  "max_age_seconds": int(MAX_AGE.total_seconds())}
    if "email_otp" in accepted:
        body["destinations"] = [{"email_id": address.id, "masked": masked(address.email), "primary": address.primary}
                                for address in await addresses.verified_addresses(user)]
    # The password method's needs, as before: the app code too when the account has one.
    body["requires"] = ["password"] + (["totp"] if await twofactor.confirmed_factor(user) else [])
    return body


async def require_recent(session: Session, accepted: tuple[str, ...] = ANY) -> None:
    """403 ``ReauthRequired`` unless the session's last proof is recent and of an accepted method."""
    if not is_recent(session, accepted):
        raise errors.ReauthRequired(details=await options(session.user, accepted))


async def status(session: Session, accepted: tuple[str, ...]) -> dict:
    return {"recent": is_recent(session, accepted), "method": session.reauth_method or session.method,
            "reauthenticated_at": last_presented(session).isoformat(),
            "reauth_expires_at": expires_at(session).isoformat(), **await options(session.user, accepted)}


async def mark(conn: BaseDBAsyncClient, session: Session, how: str, ip: str = "", user_agent: str = "") -> None:
    """The session's credentials were presented just now (``how``), in the trail too."""
    await mark_reauthenticated(conn, session, how)
    await record(conn, session.user_id, EventKind.REAUTHENTICATED, ip=ip, user_agent=user_agent, method=how,
                 session=session.public_id)


# -- e-mailed code --------------------------------------------------------------------------------

def _session_mark(session: Session) -> str:
    return EMAIL_NONCE_PREFIX + session.public_id.removeprefix("ses_")[:20]


def new_email_challenge(session: Session) -> str:
    """A challenge id of this session (it names the code's nonce and proves the session)."""
    return _session_mark(session) + secrets.token_hex(5)


def check_email_challenge(session: Session, challenge_id: str | None) -> str:
    if not challenge_id or not challenge_id.startswith(_session_mark(session)) or len(challenge_id) > 32:
        raise errors.InvalidInput("The challenge is not one of this session; start again.",
                                  details={"challenge_id": "invalid"})
    return challenge_id


async def email_destination(user: User, email_id: str | None) -> addresses.Address:
    if not email_id:
        raise errors.InvalidInput("Name the verified address the code goes to ('email_id').",
                                  details={"email_id": "required"})
    address = await addresses.find(user, email_id)
    if not address.verified:
        raise errors.InvalidInput("The code goes only to a verified address.", details={"email_id": "not verified"})
    return address


async def send_email_otp(conn: BaseDBAsyncClient, user: User, challenge_id: str, to: str) -> None:
    await twofactor.issue_email_code(conn, user, challenge_id, to=to, purpose="confirmation")


# -- passkey --------------------------------------------------------------------------------------

async def start_passkey(conn: BaseDBAsyncClient, user: User, rp: passkeys.RelyingParty) -> tuple[str, dict]:
    if not await PasskeyCredential.filter(user_id=user.id).exists():
        raise errors.InvalidInput("The account has no passkey.", details={"method": "no passkey"})
    return await passkeys.begin_login(conn, None, rp, user=user, purpose="reauth")


async def check_passkey(conn: BaseDBAsyncClient, session: Session, challenge: PasskeyChallenge,
                        credential: dict | None, rp: passkeys.RelyingParty) -> None:
    """The assertion answers ``challenge`` (taken already, in a transaction of its own) with one
    of the session's person's passkeys; 401 ``PasskeyRecusada`` otherwise."""
    if credential is None:
        raise errors.InvalidInput("Send the authenticator's 'credential'.", details={"credential": "required"})
    user = await passkeys.finish_login(conn, challenge, credential, rp)
    if user.id != session.user_id:
        raise errors.PasskeyRejected()
