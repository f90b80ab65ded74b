"""Redirects: made by the account, resolved by the runtime by (host, slug) on a verified domain,
clicks summed from the runtime's deltas in one statement."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from app.pages.errors import SlugInUse
from models.pages import CustomDomain, Redirect
from models.pages.site import DomainStatus


async def create(conn: BaseDBAsyncClient, tenant: str, *, domain: str, slug: str, target: str,
                 status_code: int) -> Redirect:
    if await Redirect.filter(tenant_id=tenant, domain=domain, slug=slug).using_db(conn).exists():
        raise SlugInUse("Another redirect of this account already uses this slug on this domain.")
    try:
        return await Redirect.create(using_db=conn, tenant_id=tenant, domain=domain, slug=slug, target=target,
                                     status_code=status_code)
    except IntegrityError:
        raise SlugInUse("Another redirect of this account already uses this slug on this domain.") from None


async def find(conn: BaseDBAsyncClient, tenant: str, redirect_id: str, *, lock: bool = False) -> Redirect:
    query = Redirect.filter(tenant_id=tenant, public_id=redirect_id).using_db(conn)
    found = await (query.select_for_update() if lock else query).first()
    if found is None:
        raise errors.NotFound("Redirect not found.")
    return found


async def update(conn: BaseDBAsyncClient, tenant: str, redirect_id: str, changes: dict) -> Redirect:
    """``changes``: the fields sent (RedirectPatch.changes()); a new domain or slug must be free (409)."""
    row = await find(conn, tenant, redirect_id, lock=True)
    for name in ("domain", "slug", "target", "status_code"):
        if name in changes:
            setattr(row, name, changes[name])
    if {"domain", "slug"} & changes.keys() and await Redirect.filter(
            tenant_id=tenant, domain=row.domain, slug=row.slug).exclude(id=row.id).using_db(conn).exists():
        raise SlugInUse("Another redirect of this account already uses this slug on this domain.")
    try:
        await row.save(using_db=conn)
    except IntegrityError:  # the same slug taken concurrently
        raise SlugInUse("Another redirect of this account already uses this slug on this domain.") from None
    return row


async def delete(conn: BaseDBAsyncClient, tenant: str, redirect_id: str) -> None:
    await (await find(conn, tenant, redirect_id)).delete(using_db=conn)


async def list_redirects(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, Redirect.filter(tenant_id=tenant).using_db(conn), audience=f"redirects:{tenant}")


async def resolve(conn: BaseDBAsyncClient, host: str, slug: str) -> Redirect:
    """The redirect at ``host``/r/``slug``, owned by the account that verified ``host``."""
    owners = CustomDomain.filter(name=host, status=DomainStatus.VERIFIED.value).using_db(conn)
    tenants = await owners.values_list("tenant_id", flat=True)
    found = await Redirect.filter(domain=host, slug=slug, tenant_id__in=tenants).using_db(conn).first() \
        if tenants else None
    if found is None:
        raise errors.NotFound("Redirect not found.")
    return found


async def add_clicks(conn: BaseDBAsyncClient, deltas: list[tuple[str, int]]) -> int:
    """Sums the deltas (several for one redirect are added together) in one statement; unknown ids
    are skipped. Returns how many redirects were counted."""
    summed = Counter()
    for redirect_id, count in deltas:
        summed[redirect_id] += count
    ids, counts = list(summed), list(summed.values())
    counted, _ = await conn.execute_query(
        "UPDATE redirects AS r SET clicks = r.clicks + d.n, last_click_at = $3 "
        "FROM unnest($1::text[], $2::bigint[]) AS d(id, n) WHERE r.public_id = d.id",
        [ids, counts, datetime.now(timezone.utc)])
    return counted
