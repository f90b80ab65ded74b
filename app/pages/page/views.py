"""Page rows -> the contract's dicts (the only place their field names are spelled), and their shapes."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, reply_of, shape
from app.http.responses import iso
from models.pages import Page, PageVersion

ANY_LIST = {"type": "array", "items": {"type": "object"}}
NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
PAGE_SHAPE = shape(Id=STRING, Slug=STRING, Title=STRING, Domain=STRING, Status=STRING, Blocks=ANY_LIST,
                   Seo={"type": "object"}, PublishedVersion={"type": ["integer", "null"]},
                   PublishedAt=NULLABLE_TIME, CreatedAt=TIMESTAMP, UpdatedAt=TIMESTAMP)
VERSION_SHAPE = shape(Number={"type": "integer"}, Slug=STRING, Title=STRING, Blocks=ANY_LIST, Seo={"type": "object"},
                      PublishedAt=TIMESTAMP, Live={"type": "boolean"})
PAGE = reply_of(Pagina=PAGE_SHAPE)
PAGES = reply_of(Paginas={"type": "array", "items": PAGE_SHAPE}, NextCursor=NULLABLE_STRING,
                 HasMore={"type": "boolean"})
PUBLISHED = reply_of(Pagina=PAGE_SHAPE, Versao=VERSION_SHAPE)
VERSIONS = reply_of(Versoes={"type": "array", "items": VERSION_SHAPE})


def page_view(page: Page) -> dict:
    return {"Id": page.public_id, "Slug": page.slug, "Title": page.title, "Domain": page.domain,
            "Status": page.status, "Blocks": page.blocks, "Seo": page.seo, "PublishedVersion": page.live_version,
            "PublishedAt": iso(page.published_at) if page.live_version else None,
            "CreatedAt": iso(page.created_at), "UpdatedAt": iso(page.updated_at)}


def version_view(version: PageVersion, live: int | None) -> dict:
    return {"Number": version.number, "Slug": version.slug, "Title": version.title, "Blocks": version.blocks,
            "Seo": version.seo, "PublishedAt": iso(version.published_at), "Live": version.number == live}
