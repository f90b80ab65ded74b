"""The second factor: TOTP (pyotp), recovery codes and the signed challenge ticket of the login.

- TOTP: SHA-1, 6 digits, 30-second steps. A code lives 30 seconds: it is accepted during its
  own step, and at most one step of drift is allowed, backwards only and briefly: the code of
  the step that just ended is still taken during the first :data:`GRACE` seconds of the next
  (typed at a step boundary, or a phone clock a little behind). A code from a later step (a
  clock ahead) or from two steps back is refused.
  The accepted step is stored with a conditional UPDATE: the same code, or any older one, is
  never accepted twice, even by two parallel requests.
- Recovery codes: 10 per generation, ``XXXX-XXXX-XXXX`` from a 32-letter alphabet (60 bits);
  stored as HMAC-SHA256 (key derived from SECRET_KEY, salted by the user); single use; a new
  generation deletes the old one.
- E-mail code (the second method): at login a 6-digit code is e-mailed through the outbox
  (sealed), bound to the login's ticket (its nonce), stored as an HMAC; valid
  :data:`EMAIL_CODE_TTL` seconds, single use, burnt after :data:`EMAIL_CODE_MAX_FAILURES` wrong
  tries; a resend supersedes the previous code; at most :data:`EMAIL_CODES_PER_TICKET` per ticket,
  :data:`EMAIL_RESEND_INTERVAL` seconds apart.
- Ticket: after a correct password on an account with a confirmed factor, the login answers a
  ticket (signed, :data:`TICKET_TTL` seconds; :data:`EMAIL_CODE_TTL` for the e-mail method) that,
  with a valid code, opens the session.
"""

from __future__ import annotations

import secrets
import time
from datetime import datetime, timedelta, timezone

import pyotp
from pyotp.utils import strings_equal
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.expressions import Q

from app.identity import errors
from kit.sealing import IDENTITY, SignatureExpired
from models.identity import EmailCode, EmailFactor, EventKind, RecoveryCode, TotpFactor, TotpStatus, User
from models.identity.events import record
from models.identity.email import queue_email

STEP = 30
GRACE = 10
TICKET_TTL = 300
TICKET_PURPOSE = "2fa-ticket"
SECRET_PURPOSE = "totp-secret"
RECOVERY_PURPOSE = "recovery-code"
RECOVERY_COUNT = 10
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
ISSUER = "Herald"
EMAIL_CODE_TTL = 600
EMAIL_CODE_PURPOSE = "email-code"
EMAIL_CODE_MAX_FAILURES = 5
EMAIL_CODES_PER_TICKET = 5
EMAIL_RESEND_INTERVAL = 30


def new_secret() -> tuple[str, bytes]:
    secret = pyotp.random_base32()
    return secret, IDENTITY.seal(SECRET_PURPOSE, secret.encode())


def secret_of(factor: TotpFactor) -> str:
    return IDENTITY.unseal(SECRET_PURPOSE, factor.secret_enc).decode()


def otpauth_url(secret: str, email: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def matching_step(secret: str, code: str, last_step: int | None, at: float | None = None) -> int | None:
    code = (code or "").strip().replace(" ", "")
    if not (len(code) == 6 and code.isdigit()):
        return None
    at = time.time() if at is None else at
    totp = pyotp.TOTP(secret)
    current = totp.timecode(datetime.fromtimestamp(at, timezone.utc))
    steps = [current] + ([current - 1] if at - current * STEP < GRACE else [])
    for step in steps:
        if strings_equal(code, totp.generate_otp(step)) and (last_step is None or step > last_step):
            return step
    return None


async def consume_code(conn: BaseDBAsyncClient, factor: TotpFactor, code: str) -> bool:
    step = matching_step(secret_of(factor), code, factor.last_timecode)
    if step is None:
        return False
    updated = await TotpFactor.filter(Q(last_timecode=None) | Q(last_timecode__lt=step), id=factor.id) \
        .using_db(conn).update(last_timecode=step)
    return updated == 1


async def confirmed_factor(user: User, conn: BaseDBAsyncClient | None = None) -> TotpFactor | None:
    query = TotpFactor.filter(user=user, status=TotpStatus.CONFIRMED)
    if conn is not None:
        query = query.using_db(conn)
    return await query.first()


def normalize_recovery(code: str) -> str | None:
    raw = "".join(ch for ch in (code or "").upper() if ch.isalnum())
    if len(raw) != 12 or any(ch not in ALPHABET for ch in raw):
        return None
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def _recovery_hash(user: User, code: str) -> str:
    return IDENTITY.keyed_digest(RECOVERY_PURPOSE, f"{user.public_id}:{code}")


def _recovery_hashes(user: User, code: str) -> list[str]:
    """What a stored code may be: its hash under every key of SECRET_KEY (codes made before a rotation)."""
    return IDENTITY.keyed_digests(RECOVERY_PURPOSE, f"{user.public_id}:{code}")


async def replace_recovery_codes(conn: BaseDBAsyncClient, user: User) -> list[str]:
    last = await RecoveryCode.filter(user=user).using_db(conn).order_by("-generation").first()
    generation = (last.generation if last else 0) + 1
    await RecoveryCode.filter(user=user).using_db(conn).delete()
    codes = []
    for _ in range(RECOVERY_COUNT):
        raw = "".join(secrets.choice(ALPHABET) for _ in range(12))
        codes.append(f"{raw[:4]}-{raw[4:8]}-{raw[8:]}")
    await RecoveryCode.bulk_create(
        [RecoveryCode(user=user, code_hash=_recovery_hash(user, code), generation=generation) for code in codes],
        using_db=conn)
    return codes


async def consume_recovery_code(conn: BaseDBAsyncClient, user: User, code: str) -> bool:
    normal = normalize_recovery(code)
    if normal is None:
        return False
    updated = await RecoveryCode.filter(user=user, code_hash__in=_recovery_hashes(user, normal), used_at=None) \
        .using_db(conn).update(used_at=datetime.now(timezone.utc))
    return updated == 1


async def check_second_factor(conn: BaseDBAsyncClient, user: User, factor: TotpFactor, *, code: str | None,
                              recovery_code: str | None) -> str:
    """The method that passed (``totp`` or ``recovery_code``); raises TwoFactorMissing/TwoFactorFailed."""
    if not code and not recovery_code:
        raise errors.TwoFactorMissing()
    if code and await consume_code(conn, factor, code):
        return "totp"
    if recovery_code and await consume_recovery_code(conn, user, recovery_code):
        return "recovery_code"
    raise errors.TwoFactorFailed()


def issue_ticket(user: User, method: str, *, nonce: str | None = None, ttl: int = TICKET_TTL) -> str:
    return IDENTITY.sign(TICKET_PURPOSE, {"u": user.public_id, "m": method, "n": nonce or secrets.token_hex(8)}, ttl)


async def method_of(user: User, conn: BaseDBAsyncClient | None = None) -> str | None:
    """The second factor login asks for: ``totp`` (a confirmed app), ``email``, or None."""
    if await confirmed_factor(user, conn):
        return "totp"
    query = EmailFactor.filter(user=user)
    if conn is not None:
        query = query.using_db(conn)
    return "email" if await query.exists() else None


def _email_code_hash(user: User, nonce: str, code: str) -> str:
    return IDENTITY.keyed_digest(EMAIL_CODE_PURPOSE, f"{user.public_id}:{nonce}:{code}")


def _email_code_hashes(user: User, nonce: str, code: str) -> list[str]:
    """Under every key of SECRET_KEY: a code sent just before a rotation still passes."""
    return IDENTITY.keyed_digests(EMAIL_CODE_PURPOSE, f"{user.public_id}:{nonce}:{code}")


async def issue_email_code(conn: BaseDBAsyncClient, user: User, nonce: str, *, to: str | None = None,
                           purpose: str = "sign-in") -> None:
    """A new code for ``nonce`` (a login's, a re-authentication's or a password reset's): the
    previous one is superseded; the e-mail is queued to ``to`` (default: the user's address)."""
    code = f"{secrets.randbelow(10 ** 6):06d}"
    now = datetime.now(timezone.utc)
    await EmailCode.filter(user=user, ticket_nonce=nonce, used_at=None, superseded_at=None) \
        .using_db(conn).update(superseded_at=now)
    await EmailCode.create(user=user, ticket_nonce=nonce, code_hash=_email_code_hash(user, nonce, code),
                           expires_at=now + timedelta(seconds=EMAIL_CODE_TTL), using_db=conn)
    minutes = EMAIL_CODE_TTL // 60
    # The code is in the body only: subjects end up in message lists, webhooks and logs.
    await queue_email(conn, "2fa_code", to or user.email, f"Your Herald {purpose} code",
                      f"Your Herald {purpose} code is {code}.\nIt works once, for {minutes} minutes. If you did "
                      "not ask for it, change your password: someone may be using your account.",
                      data={"code": code, "user_id": user.public_id, "purpose": purpose})


async def resend_wait(conn: BaseDBAsyncClient, user: User, nonce: str) -> int:
    """Seconds before another code may be sent for this login (0: now); raises TooManyAttempts at the cap."""
    codes = await EmailCode.filter(user=user, ticket_nonce=nonce).using_db(conn).order_by("-id") \
        .select_for_update()
    if len(codes) >= EMAIL_CODES_PER_TICKET:
        raise errors.TooManyAttempts(retry_after=EMAIL_CODE_TTL,
                                     message="No more codes can be sent for this sign-in; log in again.")
    if codes:
        elapsed = (datetime.now(timezone.utc) - codes[0].created_at).total_seconds()
        return max(0, int(EMAIL_RESEND_INTERVAL - elapsed + 0.999))
    return 0


async def consume_email_code(conn: BaseDBAsyncClient, user: User, nonce: str, code: str) -> None:
    """Accepts the live code of this login once; raises TwoFactorFailed (or Superseded / CodeExpired)."""
    code = (code or "").strip().replace(" ", "")
    rows = await EmailCode.filter(user=user, ticket_nonce=nonce).using_db(conn).order_by("-id").select_for_update()
    now = datetime.now(timezone.utc)
    live = next((row for row in rows if row.used_at is None and row.superseded_at is None), None)
    if not (len(code) == 6 and code.isdigit()):
        matched = None
    else:
        digests = _email_code_hashes(user, nonce, code)
        matched = next((row for row in rows if any(strings_equal(row.code_hash, digest) for digest in digests)), None)
    if matched is not None and matched is live and live.expires_at > now \
            and live.failures < EMAIL_CODE_MAX_FAILURES:
        await EmailCode.filter(id=live.id, used_at=None).using_db(conn).update(used_at=now)
        return
    if matched is not None and matched.used_at is None and matched.superseded_at is not None:
        raise errors.TwoFactorSuperseded()
    if matched is not None and matched.used_at is None and matched.expires_at <= now:
        raise errors.TwoFactorCodeExpired()
    if live is not None and matched is None:
        # Wrong guesses burn the code after a few: the person asks for a new one.
        live.failures += 1
        update = {"failures": live.failures}
        if live.failures >= EMAIL_CODE_MAX_FAILURES:
            update["superseded_at"] = now
        await EmailCode.filter(id=live.id).using_db(conn).update(**update)
    raise errors.TwoFactorFailed()


async def check_email_factor(conn: BaseDBAsyncClient, user: User, nonce: str, *, code: str | None,
                             recovery_code: str | None) -> str:
    """The method that passed (``email_code`` or ``recovery_code``); raises like check_second_factor."""
    if not code and not recovery_code:
        raise errors.TwoFactorMissing()
    if recovery_code and await consume_recovery_code(conn, user, recovery_code):
        return "recovery_code"
    if code:
        await consume_email_code(conn, user, nonce, code)
        return "email_code"
    raise errors.TwoFactorFailed()


def open_ticket(ticket: str) -> dict:
    try:
        # A ticket is base64url text; anything else is no ticket (the signature check compares ASCII only).
        payload = IDENTITY.unsign(TICKET_PURPOSE, ticket) if ticket.isascii() else None
    except SignatureExpired:
        raise errors.TwoFactorExpired() from None
    if payload is None:
        raise errors.InvalidInput("The two-factor ticket is not valid.", details={"ticket": "invalid"})
    return payload


async def factor_to_check(user: User, *, code: str | None, recovery_code: str | None) -> TotpFactor | None:
    """The app factor a password step must also check (None without one); 400 ``TwoFactorMissing``
    when the account has one and neither a code nor a recovery code was given."""
    factor = await confirmed_factor(user)
    if factor is not None and not code and not recovery_code:
        raise errors.TwoFactorMissing()
    return factor


async def email_code_login(ticket: str) -> tuple[User, str]:
    """The user and nonce of a pending login whose second step is an e-mailed code."""
    payload = open_ticket(ticket)
    user = await User.get_or_none(public_id=payload["u"])
    if user is None:
        raise errors.TwoFactorExpired()
    if await method_of(user) != "email":
        raise errors.InvalidInput("This sign-in does not use an e-mailed code.",
                                  details={"ticket": "not an e-mail code challenge"})
    return user, payload.get("n") or ""


# -- setting the factor up ------------------------------------------------------------------------

async def state(user: User) -> dict:
    """``{enabled, method, status}``: ``status`` is ``confirmed``, ``pending`` (an app set up, not
    verified) or ``none``."""
    method = await method_of(user)
    pending = method is None and await TotpFactor.filter(user=user, status=TotpStatus.PENDING).exists()
    return {"enabled": method is not None, "method": method,
            "status": "confirmed" if method else ("pending" if pending else "none")}


async def start_setup(conn: BaseDBAsyncClient, user: User) -> str:
    """A new pending app factor (replacing a pending one); its secret, shown once."""
    if await confirmed_factor(user):
        raise errors.Conflict("Two-factor authentication is already on; disable it first (with the password).")
    secret, sealed = new_secret()
    await TotpFactor.filter(user=user).using_db(conn).delete()
    await TotpFactor.create(user=user, secret_enc=sealed, status=TotpStatus.PENDING, using_db=conn)
    return secret


async def confirm_setup(conn: BaseDBAsyncClient, user: User, code: str) -> list[str]:
    """Confirms the pending app factor with a code from it; the first recovery codes. The app
    replaces the e-mail method. Raises TwoFactorFailed for a wrong code."""
    factor = await TotpFactor.filter(user=user, status=TotpStatus.PENDING).using_db(conn).select_for_update().first()
    if factor is None:
        raise errors.Conflict("There is no two-factor set-up waiting for confirmation; call /v1/2fa/setup.")
    if not await consume_code(conn, factor, code):
        raise errors.TwoFactorFailed()
    await TotpFactor.filter(id=factor.id).using_db(conn).update(status=TotpStatus.CONFIRMED,
                                                                confirmed_at=datetime.now(timezone.utc))
    await EmailFactor.filter(user=user).using_db(conn).delete()
    await record(conn, user.id, EventKind.TOTP_ENABLED)
    return await replace_recovery_codes(conn, user)


async def disable(conn: BaseDBAsyncClient, user: User) -> None:
    """Removes the factor (app or e-mail) and its recovery codes."""
    await TotpFactor.filter(user=user).using_db(conn).delete()
    await EmailFactor.filter(user=user).using_db(conn).delete()
    await RecoveryCode.filter(user=user).using_db(conn).delete()
    await record(conn, user.id, EventKind.TWO_FACTOR_DISABLED)


async def use_email(conn: BaseDBAsyncClient, user: User) -> list[str]:
    """Switches the second factor to e-mailed codes (an app factor goes); new recovery codes."""
    if user.email_verified_at is None:
        raise errors.Conflict("Verify your e-mail address first: login codes will be sent to it.")
    await TotpFactor.filter(user=user).using_db(conn).delete()
    await EmailFactor.get_or_create(user=user, using_db=conn)
    await record(conn, user.id, EventKind.EMAIL_FACTOR_ENABLED)
    return await replace_recovery_codes(conn, user)


async def regenerate_recovery_codes(conn: BaseDBAsyncClient, user: User, *, ip: str = "",
                                    user_agent: str = "") -> list[str]:
    """A new generation of recovery codes; the earlier ones stop working."""
    if await method_of(user) is None:
        raise errors.Conflict("Recovery codes need two-factor authentication to be on.")
    codes = await replace_recovery_codes(conn, user)
    await record(conn, user.id, EventKind.RECOVERY_CODES_GENERATED, ip=ip, user_agent=user_agent, count=len(codes))
    return codes
