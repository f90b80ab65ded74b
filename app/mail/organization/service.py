"""Organizations: the account's one organization (made on first use), found by its id only within
the account, so another account's answers 404 like a missing one."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.mail.caller import Caller
from models.mail import Mailbox, Organization
from models.mail.organization import organization_of


async def own(conn: BaseDBAsyncClient, caller: Caller) -> Organization:
    return await organization_of(conn, caller.tenant_id)


async def find(conn: BaseDBAsyncClient, caller: Caller, organization_id: str) -> Organization:
    if len(organization_id) > 40:  # no id is that long (and the column refuses the comparison)
        raise errors.NotFound("No such organization.")
    found = await Organization.filter(public_id=organization_id, tenant_id=caller.tenant_id).using_db(conn).first()
    if found is None:
        raise errors.NotFound("No such organization.")
    return found


async def mailbox_count(conn: BaseDBAsyncClient, caller: Caller, organization: Organization) -> int:
    return await Mailbox.filter(organization_id=organization.id, live=caller.live).using_db(conn).count()
