"""Users: registration, reading and changing one, and e-mail verification.

Creating a user is public (self-registration); reading and changing one needs either that user's
own session or the service credential (``session`` None below). Another person's id answers 404.

A change of e-mail points the account at a new, unverified address: a verification goes to it,
a notice to the old one, and the reset links still pending (sent to the old one) stop working.
On a session it needs a recent re-authentication (checked by the caller, see
session/service.py); while the e-mail second factor is on it is refused (that address receives
the login codes).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors, tokens
from models.identity import EmailFactor, EmailToken, EmailTokenPurpose, EventKind, Session, User, UserEmail
from models.identity.events import record
from models.identity.email import queue_email

VERIFY_TTL = timedelta(hours=48)
INVALID_LINK = "The link is invalid or has expired."
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s]+$")


def normalize_email(email: str) -> str:
    return email.strip().casefold()


def check_email(email: str, field: str = "email") -> str:
    email = email.strip()
    if len(email) > 320 or not EMAIL.match(email):
        raise errors.InvalidInput(f"Field {field!r}: not a valid e-mail address.", details={field: "invalid e-mail"})
    return email


def check_name(name: str) -> str:
    name = name.strip()
    if len(name) > 200:
        raise errors.InvalidInput("Field 'name': at most 200 characters.", details={"name": "at most 200 characters"})
    return name


def email_taken() -> errors.Conflict:
    return errors.Conflict("An account with this e-mail already exists.", details={"email": "already registered"})


def masked(email: str) -> str:
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


async def by_email(email: str) -> User | None:
    return await User.get_or_none(email_key=normalize_email(email))


async def refuse_taken(email: str) -> None:
    """409 ``Conflict`` when an account has this e-mail (case-insensitive)."""
    if await User.filter(email_key=normalize_email(email)).exists():
        raise email_taken()


async def create_user(conn: BaseDBAsyncClient, email: str, name: str, password_hash: str,
                      platform_url: str) -> User:
    """A new account (e-mail unverified) and its verification e-mail. A lost race on the e-mail
    raises IntegrityError at the insert or the commit (the caller answers :func:`email_taken`)."""
    user = await User.create(public_id=tokens.public_id("usr"), email=email, email_key=normalize_email(email),
                             name=name, password_hash=password_hash, using_db=conn)
    await queue_verification(conn, user, platform_url)
    return user


async def visible_user(user_id: str, session: Session | None) -> User:
    """The user ``user_id`` as the caller may see it: with the service credential (``session``
    None) any user; on a session only its own (another person's answers 404 like an unknown one)."""
    if session is None:
        user = await User.get_or_none(public_id=user_id)
    else:
        user = session.user if session.user.public_id == user_id else None
    if user is None:
        raise errors.NotFound("No such user.")
    return user


def moves_email(user: User, email: str | None) -> bool:
    return email is not None and normalize_email(email) != user.email_key


async def change_user(conn: BaseDBAsyncClient, user: User, *, name: str | None, email: str | None,
                      platform_url: str) -> User:
    """Sets the name and/or the e-mail (both checked already); the row is locked and read again."""
    user = await User.filter(id=user.id).using_db(conn).select_for_update().get()
    if name is not None:
        user.name = name
    if moves_email(user, email):
        await _move_email(conn, user, email, platform_url)
    elif email is not None:
        user.email = email  # the same address, written differently
    await user.save(using_db=conn)
    return user


async def _move_email(conn: BaseDBAsyncClient, user: User, email: str, platform_url: str) -> None:
    """Points the account at a new, unverified address: a verification goes to it, a notice to
    the old one, and reset links sent to the old one stop working."""
    if await EmailFactor.filter(user_id=user.id).using_db(conn).exists():
        # The address receives the login codes: moving it would move the second factor
        # without the password. The factor goes off first (POST /v1/2fa/disable).
        raise errors.Conflict(
            "This address receives the sign-in codes; turn the e-mail second factor off "
            "(with the password) before changing it.", details={"email": "second factor address"})
    if await User.filter(email_key=normalize_email(email)).using_db(conn).exists():
        raise email_taken()
    now = datetime.now(timezone.utc)
    await EmailToken.filter(user_id=user.id, purpose=EmailTokenPurpose.RESET, used_at=None,
                            expires_at__gt=now).using_db(conn).update(expires_at=now)
    old = user.email
    if await UserEmail.filter(user_id=user.id, email_key=normalize_email(email)).using_db(conn).exists():
        # It becomes the primary: it is no longer one of the recovery addresses too.
        await UserEmail.filter(user_id=user.id, email_key=normalize_email(email)).using_db(conn).delete()
    await record(conn, user.id, EventKind.EMAIL_CHANGED, email=masked(email), previous=masked(old))
    user.email, user.email_key, user.email_verified_at = email, normalize_email(email), None
    await queue_email(conn, "email_changed", old, "The e-mail address of your Herald account changed",
                      f"The e-mail address of your Herald account was changed from {old} to {masked(email)} "
                      f"at {now:%Y-%m-%d %H:%M} UTC.\nIf you did not do this, someone else may be using your "
                      "account: contact your Herald operator at once.",
                      data={"user_id": user.public_id})
    await user.save(using_db=conn)
    await queue_verification(conn, user, platform_url)


# -- e-mail verification -------------------------------------------------------------------------

async def queue_verification(conn: BaseDBAsyncClient, user: User, platform_url: str, *,
                             address: str | None = None) -> None:
    """A verification link to the user's primary address, or to one of its recovery ``address``es
    (it opens the platform's page)."""
    to = address or user.email
    token = tokens.new_token("hev_")
    await EmailToken.create(user=user, purpose=EmailTokenPurpose.VERIFY, token_hash=tokens.digest(token),
                            email=to, expires_at=datetime.now(timezone.utc) + VERIFY_TTL, using_db=conn)
    link = f"{platform_url}/verify-email?token={token}"
    await queue_email(conn, "verify", to, "Confirm your e-mail address",
                      f"Confirm your e-mail address for Herald: {link}\nThe link works for 48 hours.",
                      data={"token": token, "link": link, "user_id": user.public_id})


async def consume_email_token(conn: BaseDBAsyncClient, token: str, purpose: EmailTokenPurpose) -> EmailToken | None:
    """Uses up a live link token of ``purpose``; None when it is unknown, used or expired."""
    row = await EmailToken.filter(token_hash=tokens.digest(token), purpose=purpose, used_at=None,
                                  expires_at__gt=datetime.now(timezone.utc)) \
        .using_db(conn).select_for_update().first()
    if row is None:
        return None
    await EmailToken.filter(id=row.id).using_db(conn).update(used_at=datetime.now(timezone.utc))
    return row


async def verify_email(conn: BaseDBAsyncClient, token: str) -> User:
    """Marks the address of a verification link verified (the primary or a recovery address);
    400 ``InvalidInput`` for an invalid, expired or used link, or one sent to an address the user
    no longer has (it proves nothing)."""
    row = await consume_email_token(conn, token, EmailTokenPurpose.VERIFY)
    user = await User.filter(id=row.user_id).using_db(conn).select_for_update().first() if row else None
    if row is None or user is None:
        raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
    key, at = normalize_email(row.email), datetime.now(timezone.utc)
    if user.email_key == key:
        if user.email_verified_at is None:
            user.email_verified_at = at
            await user.save(using_db=conn, update_fields=["email_verified_at", "updated_at"])
            await record(conn, user.id, EventKind.EMAIL_VERIFIED, email_id=user.email_public_id or "",
                         email=masked(user.email))
        return user
    recovery = await UserEmail.filter(user_id=user.id, email_key=key).using_db(conn).first()
    if recovery is None:
        raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
    if recovery.verified_at is None:
        await UserEmail.filter(id=recovery.id).using_db(conn).update(verified_at=at)
        await record(conn, user.id, EventKind.EMAIL_VERIFIED, email_id=recovery.public_id,
                     email=masked(recovery.email))
    return user
