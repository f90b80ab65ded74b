"""Platform staff and the audit trail: rules only (no Request, no transaction of its own).

An allowlist entry names an identity user by id (``usr_...``) or by e-mail address. An address
entry admits a session only when the identity server says the address is verified (anyone could
register an unverified address); on that first admission the user id is recorded on the entry,
so a later change of address does not drop the person.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from models.platform.audit import AdminAudit
from models.platform.staff import StaffMember

USER_ID = re.compile(r"usr_[0-9a-f]{6,36}")
EMAIL = re.compile(r"[^@\s]{1,200}@[^@\s]{1,200}\.[^@\s]{1,63}")


@dataclass(frozen=True)
class Actor:
    """Who made a change: a staff member's user id and address, or the command line."""

    user_id: str
    email: str = ""


CLI = Actor("cli", "")


async def staff_entry(conn: BaseDBAsyncClient, user_id: str, email: str, email_verified: bool) -> StaffMember | None:
    """The allowlist entry admitting this person, or None."""
    entry = await StaffMember.filter(user_id=user_id).using_db(conn).first()
    if entry is not None or not email_verified or not email:
        return entry
    entry = await StaffMember.filter(email=email.strip().lower(), user_id=None).using_db(conn).first()
    if entry is not None:
        entry.user_id = user_id
        await entry.save(using_db=conn, update_fields=["user_id"])
    return entry


def _who(who: str) -> dict[str, str]:
    who = who.strip()
    if USER_ID.fullmatch(who):
        return {"user_id": who}
    if EMAIL.fullmatch(who):
        return {"email": who.lower()}
    raise errors.ValidationError(f"{who!r} is neither a user id (usr_...) nor an e-mail address.")


async def add_staff(conn: BaseDBAsyncClient, who: str, actor: Actor) -> StaffMember:
    """Allowlist a person by user id or e-mail address (idempotent)."""
    key = _who(who)
    entry = await StaffMember.filter(**key).using_db(conn).first()
    if entry is not None:
        return entry
    try:
        entry = await StaffMember.create(**key, added_by=actor.user_id, using_db=conn)
    except IntegrityError:  # added at the same moment by someone else
        return await StaffMember.get(**key, using_db=conn)
    await record(conn, actor, "staff.add", who.strip(), {"Added": key})
    return entry


async def remove_staff(conn: BaseDBAsyncClient, who: str, actor: Actor) -> bool:
    """Drop a person from the allowlist (by user id or address); False when they were not on it."""
    key = _who(who)
    removed = await StaffMember.filter(**key).using_db(conn).delete()
    if removed:
        await record(conn, actor, "staff.remove", who.strip(), {"Removed": key})
    return bool(removed)


async def list_staff(conn: BaseDBAsyncClient) -> list[StaffMember]:
    return await StaffMember.all().using_db(conn).order_by("id")


async def record(conn: BaseDBAsyncClient, actor: Actor, action: str, target: str, change: dict) -> AdminAudit:
    """One line of the audit trail, written in the transaction of the change it describes."""
    return await AdminAudit.create(actor_id=actor.user_id, actor_email=actor.email, action=action,
                                   target=target[:200], change=change, using_db=conn)


def audit_lines(conn: BaseDBAsyncClient, target: str | None = None, action: str | None = None):
    """The audit trail (newest first, for a keyset page), optionally of one target or action."""
    query = AdminAudit.all().using_db(conn)
    if target:
        query = query.filter(target=target)
    if action:
        query = query.filter(action=action)
    return query
