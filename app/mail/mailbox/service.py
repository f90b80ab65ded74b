"""Mailboxes: an address on one of the account's verified sending domains (asked of the platform
when the mailbox is made), or, for an ``sk_test_`` key, on the sandbox domain too. Every query is
filtered by the account and the caller's mode, so another account's mailbox (or a test key's, for
a live caller) answers 404 like a missing one."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.http.services import ServiceClient
from app.mail import errors as mail_errors
from app.mail.caller import Caller
from app.mail.platform import call, domains_path
from models.mail import Mailbox, Organization
from models.mail.organization import organization_of

# Test keys of every account may send from this domain; their mail only reaches the sinks
# (models/platform/domain.py: SANDBOX_DOMAIN, the platform's).
SANDBOX_DOMAIN = "sandbox.herald.test"


# The longest public id the column holds (models/mail/mailbox.py).
MAX_ID_LENGTH = 40


async def usable_domain(platform: ServiceClient, caller: Caller, domain: str) -> None:
    """422 unless ``domain`` is a verified domain of the account (or the sandbox, for a test key)."""
    if not caller.live and domain == SANDBOX_DOMAIN:
        return
    try:
        answer = await call(platform, "GET", domains_path(caller.tenant_id, domain))
    except errors.NotFound:
        raise mail_errors.DomainNotUsable(f"{domain} is not a domain of this account; add and verify it first.") \
            from None
    if answer.body["Domain"]["State"] != "verified":
        raise mail_errors.DomainNotUsable(f"{domain} is not verified yet; publish its records and verify it first.")


async def create(conn: BaseDBAsyncClient, platform: ServiceClient, caller: Caller, address: str,
                 name: str | None) -> tuple[Mailbox, Organization]:
    domain = address.rpartition("@")[2]
    await usable_domain(platform, caller, domain)
    organization = await organization_of(conn, caller.tenant_id)
    try:
        row = await Mailbox.create(tenant_id=caller.tenant_id, organization_id=organization.id, address=address,
                                   domain=domain, display_name=name, live=caller.live, using_db=conn)
    except IntegrityError:
        raise errors.Conflict(f"This account already has a mailbox {address}.") from None
    return row, organization


async def list_mailboxes(conn: BaseDBAsyncClient, caller: Caller) -> list[Mailbox]:
    return await (Mailbox.filter(tenant_id=caller.tenant_id, live=caller.live).using_db(conn)
                  .prefetch_related("organization").order_by("address"))


async def find(conn: BaseDBAsyncClient, caller: Caller, mailbox_id: str) -> Mailbox:
    if len(mailbox_id) > MAX_ID_LENGTH:  # no id is that long (and the column refuses the comparison)
        raise errors.NotFound("No such mailbox.")
    found = await (Mailbox.filter(public_id=mailbox_id, tenant_id=caller.tenant_id, live=caller.live).using_db(conn)
                   .prefetch_related("organization").first())
    if found is None:
        raise errors.NotFound("No such mailbox.")
    return found


async def by_address(conn: BaseDBAsyncClient, caller: Caller, address: str) -> Mailbox | None:
    return await Mailbox.filter(tenant_id=caller.tenant_id, live=caller.live, address=address.lower()).using_db(
        conn).first()


async def remove(conn: BaseDBAsyncClient, caller: Caller, mailbox_id: str) -> None:
    found = await find(conn, caller, mailbox_id)
    await Mailbox.filter(id=found.id).using_db(conn).delete()


async def addresses(conn: BaseDBAsyncClient, tenant_id: str, live: bool) -> list[str]:
    """The addresses of an account's mailboxes of one mode (for the platform's GET /v1/senders)."""
    return await Mailbox.filter(tenant_id=tenant_id, live=live).using_db(conn).order_by("address").values_list(
        "address", flat=True)
