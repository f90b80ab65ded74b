"""Pages: the draft, publishing (each publish a numbered version), unpublishing, restoring a version
into the draft. Every query names the account: another account's page is the same 404 as none.

Services take (conn, tenant, plain values); the surface opens the transaction.
"""

from __future__ import annotations

import json

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from app.pages.errors import InvalidPageContent, SlugInUse
from models.pages import Form, Media, Page, PageVersion
from models.pages.page import PageStatus, publish_draft

NOT_FOUND = "Page not found."


async def find(conn: BaseDBAsyncClient, tenant: str, page_id: str, *, lock: bool = False) -> Page:
    query = Page.filter(tenant_id=tenant, public_id=page_id).using_db(conn)
    if lock:
        query = query.select_for_update()
    page = await query.first()
    if page is None:
        raise errors.NotFound(NOT_FOUND)
    return page


async def list_pages(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, Page.filter(tenant_id=tenant).using_db(conn), audience=f"pages:{tenant}")


def referenced(blocks: list[dict]) -> tuple[set[str], set[str]]:
    """The form ids and media ids the (validated, stored-shape) blocks point at."""
    forms = {block["FormId"] for block in blocks if block.get("Type") == "form"}
    media = {block["MediaId"] for block in blocks if block.get("Type") == "image" and block.get("MediaId")}
    return forms, media


async def check_references(conn: BaseDBAsyncClient, tenant: str, blocks: list[dict]) -> None:
    """Form and image blocks must name the account's own forms and media (422 naming the missing)."""
    forms, media = referenced(blocks)
    problems: dict[str, str] = {}
    if forms:
        found = set(await Form.filter(tenant_id=tenant, public_id__in=forms).using_db(conn)
                    .values_list("public_id", flat=True))
        problems.update({form: "no such form" for form in sorted(forms - found)})
    if media:
        found = set(await Media.filter(tenant_id=tenant, public_id__in=media).using_db(conn)
                    .values_list("public_id", flat=True))
        problems.update({item: "no such media" for item in sorted(media - found)})
    if problems:
        raise InvalidPageContent(f"The blocks refer to {next(iter(problems))!r}, which this account does not have.",
                                 details=problems)


async def used_in_pages(conn: BaseDBAsyncClient, tenant: str, block: dict) -> bool:
    """Whether a page of the account has a block containing ``block`` (``{"FormId": id}``,
    ``{"MediaId": id}``) in its draft, its live version or a variant of its experiment."""
    fragment = json.dumps([block])
    rows = await conn.execute_query_dict(
        "SELECT 1 FROM pages p WHERE p.tenant_id = $1 AND (p.blocks @> $2::jsonb OR EXISTS ("
        "  SELECT 1 FROM page_versions v WHERE v.page_id = p.id AND v.number = p.live_version"
        "  AND v.blocks @> $2::jsonb) OR EXISTS (SELECT 1 FROM page_experiments e JOIN page_variants r"
        "  ON r.experiment_id = e.id WHERE e.page_id = p.id AND r.blocks @> $2::jsonb)) LIMIT 1", [tenant, fragment])
    return bool(rows)


async def _slug_free(conn: BaseDBAsyncClient, tenant: str, domain: str, slug: str, page_pk: int | None) -> None:
    query = Page.filter(tenant_id=tenant, domain=domain, slug=slug).using_db(conn)
    if page_pk is not None:
        query = query.exclude(id=page_pk)
    if await query.exists():
        raise SlugInUse(details={"Slug": "in use"})


async def create_page(conn: BaseDBAsyncClient, tenant: str, *, title: str, slug: str, domain: str,
                      blocks: list[dict], seo: dict) -> Page:
    await check_references(conn, tenant, blocks)
    await _slug_free(conn, tenant, domain, slug, None)
    try:
        return await Page.create(using_db=conn, tenant_id=tenant, title=title, slug=slug, domain=domain,
                                 blocks=blocks, seo=seo)
    except IntegrityError:  # created concurrently with the same slug
        raise SlugInUse(details={"Slug": "in use"}) from None


async def update_page(conn: BaseDBAsyncClient, tenant: str, page_id: str, changes: dict) -> Page:
    """``changes``: column -> value, only the fields sent (blocks and SEO in their stored shape)."""
    page = await find(conn, tenant, page_id, lock=True)
    if "blocks" in changes:
        await check_references(conn, tenant, changes["blocks"])
    for name in ("title", "slug", "domain", "blocks", "seo"):
        if name in changes:
            setattr(page, name, changes[name])
    if {"slug", "domain"} & changes.keys():
        await _slug_free(conn, tenant, page.domain, page.slug, page.id)
    await page.save(using_db=conn)
    return page


async def publish(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> tuple[Page, PageVersion]:
    """The draft becomes version N+1, live at once; earlier versions stay to roll back to."""
    page = await find(conn, tenant, page_id, lock=True)
    await check_references(conn, tenant, page.blocks)
    return page, await publish_draft(conn, page)


async def unpublish(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> Page:
    page = await find(conn, tenant, page_id, lock=True)
    page.live_version = None
    page.status = PageStatus.DRAFT.value
    await page.save(using_db=conn)
    return page


async def delete_page(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> None:
    """Deletes a draft page with its versions, routing and experiments; a page on the air must be
    unpublished first (taking it off the air needs ``pages:publish``)."""
    page = await find(conn, tenant, page_id, lock=True)
    if page.live_version is not None:
        raise errors.Conflict("The page is published; unpublish it before deleting it.")
    await page.delete(using_db=conn)


async def versions(conn: BaseDBAsyncClient, tenant: str, page_id: str) -> tuple[Page, list[PageVersion]]:
    page = await find(conn, tenant, page_id)
    return page, await PageVersion.filter(page_id=page.id).using_db(conn).order_by("-number")


async def restore(conn: BaseDBAsyncClient, tenant: str, page_id: str, number: int) -> Page:
    """Version ``number`` becomes the draft again (publish it to make it live)."""
    page = await find(conn, tenant, page_id, lock=True)
    version = await PageVersion.get_or_none(page_id=page.id, number=number).using_db(conn)
    if version is None:
        raise errors.NotFound("Version not found.")
    await _slug_free(conn, tenant, page.domain, version.slug, page.id)
    page.slug, page.title, page.blocks, page.seo = version.slug, version.title, version.blocks, version.seo
    await page.save(using_db=conn)
    return page
