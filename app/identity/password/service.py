"""Passwords: hashing (bcrypt, cost 12: ``PASSWORD_HASH_COST``, lower only in tests), the password policy, and resetting a forgotten one.

- bcrypt runs in threads (it releases the GIL), in two separate pools per process: password
  checks (login and password re-checks) at most :data:`CHECK_SLOTS` at a time, new hashes
  (sign-up, reset) at most :data:`HASH_SLOTS`. A flood of sign-ups cannot queue the logins
  behind it, and neither flood can starve the event loop.
- Every login path runs exactly one bcrypt check: an unknown e-mail is checked against a dummy
  hash, so known and unknown users take the same time.
- bcrypt reads at most 72 bytes: a longer password is first reduced to base64(SHA-256(password))
  (44 bytes), so every character counts.
- Policy: at least :data:`MIN_LENGTH` characters (:data:`RESET_MIN_LENGTH` when resetting), at most
  :data:`MAX_LENGTH`, and not in the offline list of common/breached passwords
  (``common-passwords.txt``, see docs/identity.md for its source) as typed, with digits or
  symbols around it, in leetspeak or repeated; nor the user's own e-mail or name.
- Reset: a link token (``hpr_``, :data:`RESET_TTL`, single use, SHA-256 stored) e-mailed to the
  account's primary address (or, asked by one, to a verified recovery address); confirming it sets the new password, proves the mailbox, and ends every
  session. An account with a second factor presents it too: the app code, or, for the e-mail
  method, a code asked for with :func:`send_reset_code` (bound to the link; the same 10-minute,
  single-use e-mailed code as a login's), or a recovery code.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from pathlib import Path

import bcrypt
from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors, tokens
from kit.settings import get_settings
from app.identity.session.service import revoke_all
from app.identity.twofactor import service as twofactor
from app.identity.user.service import INVALID_LINK, consume_email_token, normalize_email
from models.identity import EmailToken, EmailTokenPurpose, EventKind, User, UserEmail
from models.identity.events import record
from models.identity.email import queue_email

COST = 12  # the contract's minimum and the default of PASSWORD_HASH_COST
MIN_LENGTH = 8  # registration (the contract's register schema)
RESET_MIN_LENGTH = 12  # reset policy
MAX_LENGTH = 1024
CHECK_SLOTS = 2
HASH_SLOTS = 2
RESET_TTL = timedelta(minutes=30)
_LIST = Path(__file__).with_name("common-passwords.txt")
_slots: dict[str, asyncio.Semaphore] = {}


def _bytes(password: str) -> bytes:
    raw = password.encode("utf-8")
    if len(raw) > 72:
        raw = base64.b64encode(hashlib.sha256(raw).digest())
    return raw


def cost() -> int:
    return get_settings().password_hash_cost


@lru_cache(maxsize=1)
def _dummy_hash() -> bytes:
    # The same cost as real hashes: an unknown e-mail's check takes as long as a known one's.
    return bcrypt.hashpw(b"herald-dummy-password", bcrypt.gensalt(rounds=cost()))


def _pool(name: str, size: int) -> asyncio.Semaphore:
    if name not in _slots:
        _slots[name] = asyncio.Semaphore(size)
    return _slots[name]


async def hash_password(password: str) -> str:
    async with _pool("hash", HASH_SLOTS):
        hashed = await asyncio.to_thread(bcrypt.hashpw, _bytes(password), bcrypt.gensalt(rounds=cost()))
    return hashed.decode("ascii")


async def check_password(password: str, hashed: str | None) -> bool:
    """True when ``password`` matches; with ``hashed`` None (unknown user) it still costs one bcrypt check."""
    target = hashed.encode("ascii") if hashed else _dummy_hash()
    async with _pool("check", CHECK_SLOTS):
        ok = await asyncio.to_thread(bcrypt.checkpw, _bytes(password), target)
    return ok and hashed is not None


def warm_up() -> None:
    """Computes the dummy hash before the first login (so the first unknown-user login is not slower)."""
    _dummy_hash()
    common_passwords()


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    with open(_LIST, encoding="utf-8") as source:
        return frozenset(line.strip() for line in source if line.strip())


_LEET = str.maketrans({"@": "a", "4": "a", "0": "o", "1": "i", "!": "i", "3": "e", "$": "s", "5": "s", "7": "t"})
_EDGES = "0123456789!@#$%^&*()-_=+.,;:?~ "


def is_common(folded: str) -> bool:
    """In the list as typed, with digits/symbols trimmed off the ends, de-leeted, or repeated."""
    common = common_passwords()
    if len(set(folded)) < 3:
        return True
    candidates = {folded, folded.strip(_EDGES), folded.translate(_LEET), folded.translate(_LEET).strip(_EDGES)}
    for size in range(1, len(folded) // 2 + 1):
        if len(folded) % size == 0 and folded[:size] * (len(folded) // size) == folded:
            candidates.add(folded[:size])
            break
    return any(candidate in common for candidate in candidates if len(candidate) >= 4) or any(
        len(candidate) < 4 for candidate in candidates if candidate == folded.strip(_EDGES))


def check_policy(password: str, *, minimum: int, email: str = "", name: str = "", field: str = "password") -> None:
    if len(password) < minimum:
        raise errors.WeakPassword(f"The password must have at least {minimum} characters.",
                                  details={field: f"at least {minimum} characters"})
    if len(password) > MAX_LENGTH:
        raise errors.WeakPassword(f"The password must have at most {MAX_LENGTH} characters.",
                                  details={field: f"at most {MAX_LENGTH} characters"})
    folded = password.strip().casefold()
    if is_common(folded):
        raise errors.WeakPassword("This password is too common; choose another.", details={field: "too common"})
    personal = {email.casefold(), email.split("@")[0].casefold(), name.strip().casefold(), "herald"}
    if folded in {item for item in personal if item}:
        raise errors.WeakPassword("The password must not be your e-mail, your name or the service name.",
                                  details={field: "too easy to guess"})


# -- reset ---------------------------------------------------------------------------------------

async def reset_recipients(email: str) -> list[tuple[User, str]]:
    """Who a reset asked for ``email`` goes to: the account whose primary address it is, else every
    account that has it as a *verified* recovery address (each gets its own link, to that address)."""
    key = normalize_email(email)
    user = await User.get_or_none(email_key=key)
    if user is not None:
        return [(user, user.email)]
    rows = await UserEmail.filter(email_key=key, verified_at__isnull=False).select_related("user")
    return [(row.user, row.email) for row in rows]


async def send_reset(conn: BaseDBAsyncClient, user: User, platform_url: str, to: str | None = None) -> None:
    """A reset link to the account's primary address, or to one of its verified recovery
    addresses ``to`` (the link opens the platform's reset page)."""
    to = to or user.email
    token = tokens.new_token("hpr_")
    await EmailToken.create(user=user, purpose=EmailTokenPurpose.RESET, token_hash=tokens.digest(token),
                            email=to, expires_at=datetime.now(timezone.utc) + RESET_TTL, using_db=conn)
    link = f"{platform_url}/reset-password?token={token}"
    # The link is in the body only: subjects end up in message lists, webhooks and logs.
    await queue_email(conn, "reset", to, "Reset your password",
                      f"Reset your Herald password: {link}\nThe link works for 30 minutes. "
                      "If you did not ask for this, ignore this e-mail.",
                      data={"token": token, "link": link, "user_id": user.public_id})


async def live_reset_token(token: str) -> tuple[EmailToken, User]:
    """The reset link token, unused and unexpired, and its user; 400 ``InvalidInput`` otherwise
    (invalid, expired and used tokens answer the same)."""
    row = await EmailToken.get_or_none(token_hash=tokens.digest(token), purpose=EmailTokenPurpose.RESET,
                                       used_at=None, expires_at__gt=datetime.now(timezone.utc))
    if row is None:
        raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
    return row, await User.get(id=row.user_id)


def reset_nonce(row: EmailToken) -> str:
    """The e-mailed code of a reset belongs to its link."""
    return f"rs{row.id}"


async def send_reset_code(conn: BaseDBAsyncClient, user: User, row: EmailToken) -> bool:
    """E-mails a code for the reset of an account whose second factor is the e-mail method (True);
    any other account gets nothing (False). 429 too soon after the last code or past the cap."""
    if await twofactor.method_of(user, conn) != "email":
        return False
    nonce = reset_nonce(row)
    wait = await twofactor.resend_wait(conn, user, nonce)
    if wait:
        raise errors.TooManyAttempts(retry_after=wait, message=f"A code was just sent; wait {wait} s.")
    await twofactor.issue_email_code(conn, user, nonce, purpose="password reset")
    return True


async def reset_password(conn: BaseDBAsyncClient, user: User, row: EmailToken, token: str, new_hash: str,
                         method: str | None, *, code: str | None, recovery_code: str | None,
                         ip: str = "", user_agent: str = "") -> None:
    """Uses the link token up, checks the second factor (``method``: totp, email or None), sets
    ``new_hash`` and ends every session of the user. A wrong code raises TwoFactorFailed: the
    caller's transaction rolls back and the link token stays usable."""
    if await consume_email_token(conn, token, EmailTokenPurpose.RESET) is None:
        raise errors.InvalidInput(INVALID_LINK, details={"token": "invalid or expired"})
    if method == "totp":
        factor = await twofactor.confirmed_factor(user, conn)
        await twofactor.check_second_factor(conn, user, factor, code=code, recovery_code=recovery_code)
    elif method == "email":
        await twofactor.check_email_factor(conn, user, reset_nonce(row), code=code, recovery_code=recovery_code)
    update = {"password_hash": new_hash}
    if normalize_email(row.email) == user.email_key and user.email_verified_at is None:
        update["email_verified_at"] = datetime.now(timezone.utc)  # the mailbox was just proved
    await User.filter(id=user.id).using_db(conn).update(**update)
    await revoke_all(conn, user)
    await record(conn, user.id, EventKind.PASSWORD_RESET, ip=ip, user_agent=user_agent, sessions_revoked=True)
