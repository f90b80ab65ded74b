"""A person's e-mail addresses: the primary (the user row's ``email``, where sign-in codes,
reset links and notices go) and up to :data:`MAX_RECOVERY` recovery addresses
(models/identity/addresses.py), each verified by a link like the primary.

- Adding one is limited to :data:`ADDITIONS_PER_DAY` attempts a day per person (every attempt
  counts, each may send an e-mail) and by the destination address's own ceiling. The answer is
  neutral: an address the person already has gets no new row, an unverified one its link again.
- Removing the primary is refused (409): make another address primary first. Removing a
  recovery address voids the links still pending to it (a reset, its verification).
- A verified recovery address can receive a password reset (password/service.py).
- Making a recovery address primary needs it verified, and refuses an address that is another
  account's primary (409). The two swap in one transaction (address, verification, id); the old
  primary gets a notice and stays as a recovery address.
- The writes need a recent re-authentication of the session (app/identity/reauth/service.py);
  the surface checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import errors
from app.identity.gate import throttle
from app.identity.user.service import check_email, masked, normalize_email, queue_verification
from models.identity import EmailToken, EventKind, User, UserEmail
from models.identity.email import queue_email
from models.identity.events import record

MAX_RECOVERY = 10
ADDITIONS_PER_DAY = 10
ADD_ACCOUNT = throttle.Limit("email-add:account", ADDITIONS_PER_DAY, 86400)


@dataclass(frozen=True)
class Address:
    """One address of a person, whichever its role."""

    id: str
    email: str
    primary: bool
    verified_at: datetime | None
    created_at: datetime

    @property
    def verified(self) -> bool:
        return self.verified_at is not None


def primary_of(user: User) -> Address:
    return Address(user.email_public_id or "", user.email, True, user.email_verified_at, user.created_at)


def recovery_of(row: UserEmail) -> Address:
    return Address(row.public_id, row.email, False, row.verified_at, row.created_at)


async def addresses(user: User, conn: BaseDBAsyncClient | None = None) -> list[Address]:
    """The primary first, then the recovery addresses oldest first."""
    query = UserEmail.filter(user_id=user.id).order_by("id")
    if conn is not None:
        query = query.using_db(conn)
    return [primary_of(user)] + [recovery_of(row) for row in await query]


async def verified_addresses(user: User) -> list[Address]:
    return [address for address in await addresses(user) if address.verified]


async def find(user: User, email_id: str) -> Address:
    """One of the person's addresses by id; another person's or an unknown id answers 404."""
    for address in await addresses(user):
        if address.id == email_id:
            return address
    raise errors.NotFound("No such e-mail address.")


def limits(user: User, email: str) -> tuple[throttle.Pair, ...]:
    return ((ADD_ACCOUNT, user.public_id), (throttle.MAIL_TO_ADDRESS, throttle.account_key(email)))


async def add(conn: BaseDBAsyncClient, user: User, email: str, platform_url: str, *, ip: str = "",
              user_agent: str = "") -> None:
    """Adds a recovery address (unverified) and sends its link; neutral for an address the
    person already has (an unverified one gets its link again)."""
    email = check_email(email)
    key = normalize_email(email)
    if key == user.email_key:
        if user.email_verified_at is None:
            await queue_verification(conn, user, platform_url)
        return
    existing = await UserEmail.filter(user_id=user.id, email_key=key).using_db(conn).first()
    if existing is not None:
        if existing.verified_at is None:
            await queue_verification(conn, user, platform_url, address=existing.email)
        return
    if await UserEmail.filter(user_id=user.id).using_db(conn).count() >= MAX_RECOVERY:
        raise errors.Conflict(f"At most {MAX_RECOVERY} recovery addresses; remove one first.",
                              details={"email": "too many addresses"})
    row = await UserEmail.create(user_id=user.id, email=email, email_key=key, using_db=conn)
    await record(conn, user.id, EventKind.EMAIL_ADDED, ip=ip, user_agent=user_agent, email_id=row.public_id,
                 email=masked(email))
    await queue_verification(conn, user, platform_url, address=email)


async def remove(conn: BaseDBAsyncClient, user: User, email_id: str, *, ip: str = "", user_agent: str = "") -> None:
    if email_id == user.email_public_id:
        raise errors.Conflict("The primary address cannot be removed; make another address primary first.",
                              details={"id": "primary address"})
    row = await UserEmail.filter(user_id=user.id, public_id=email_id).using_db(conn).first()
    if row is None:
        raise errors.NotFound("No such e-mail address.")
    await UserEmail.filter(id=row.id).using_db(conn).delete()
    # Links still pending to the address (a reset, its verification) stop working with it.
    now = datetime.now(timezone.utc)
    await EmailToken.filter(user_id=user.id, email=row.email, used_at=None, expires_at__gt=now) \
        .using_db(conn).update(expires_at=now)
    await record(conn, user.id, EventKind.EMAIL_REMOVED, ip=ip, user_agent=user_agent, email_id=row.public_id,
                 email=masked(row.email))


async def make_primary(conn: BaseDBAsyncClient, user: User, email_id: str, *, ip: str = "",
                       user_agent: str = "") -> User:
    """Swaps a verified recovery address with the primary; the user row, read again."""
    user = await User.filter(id=user.id).using_db(conn).select_for_update().get()
    if email_id == user.email_public_id:
        return user  # already primary: nothing to do
    row = await UserEmail.filter(user_id=user.id, public_id=email_id).using_db(conn).select_for_update().first()
    if row is None:
        raise errors.NotFound("No such e-mail address.")
    if row.verified_at is None:
        raise errors.Conflict("Verify this address before making it primary.", details={"id": "not verified"})
    if await User.filter(email_key=row.email_key).exclude(id=user.id).using_db(conn).exists():
        raise errors.Conflict("This address is another account's primary address.",
                              details={"id": "address in use"})
    old = (user.email, user.email_key, user.email_verified_at, user.email_public_id)
    # Each id is unique within its own table, and neither is in the other table: two plain updates.
    await UserEmail.filter(id=row.id).using_db(conn).update(email=old[0], email_key=old[1], verified_at=old[2],
                                                            public_id=old[3])
    await User.filter(id=user.id).using_db(conn).update(email=row.email, email_key=row.email_key,
                                                        email_verified_at=row.verified_at,
                                                        email_public_id=row.public_id,
                                                        updated_at=datetime.now(timezone.utc))
    await queue_email(conn, "email_changed", old[0], "The primary e-mail address of your Herald account changed",
                      f"The primary e-mail address of your Herald account is now {masked(row.email)} "
                      f"(changed at {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC). This address stays as a "
                      "recovery address.\nIf you did not do this, someone else may be using your account: "
                      "reset your password and contact your Herald operator.",
                      data={"user_id": user.public_id})
    await record(conn, user.id, EventKind.EMAIL_PRIMARY_CHANGED, ip=ip, user_agent=user_agent,
                 email_id=row.public_id, email=masked(row.email), previous=masked(old[0]))
    return await User.get(id=user.id).using_db(conn)


def refuse_verified(address: Address) -> None:
    if address.verified:
        raise errors.Conflict("This address is already verified.", details={"id": "already verified"})


async def resend(conn: BaseDBAsyncClient, user: User, address: Address, platform_url: str) -> None:
    """The verification link of one unverified address again."""
    refuse_verified(address)
    await queue_verification(conn, user, platform_url, address=None if address.primary else address.email)


async def owners_of_verified(conn: BaseDBAsyncClient, email: str) -> list[str]:
    """The ids of the people for whom ``email`` is a verified address (primary or recovery): what the
    platform asks before it lets an account send notices to an address (a form's ``NotifyEmail``)."""
    key = normalize_email(email)
    rows = await conn.execute_query_dict(
        "SELECT public_id FROM users WHERE email_key = $1 AND email_verified_at IS NOT NULL "
        "UNION SELECT u.public_id FROM user_emails e JOIN users u ON u.id = e.user_id "
        "WHERE e.email_key = $1 AND e.verified_at IS NOT NULL", [key])
    return sorted(row["public_id"] for row in rows)
