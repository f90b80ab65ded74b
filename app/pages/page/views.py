"""Page rows -> the contract's dicts (the only place their field names are spelled), and their shapes."""

from __future__ import annotations

from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, described, reply_of, shape
from app.http.responses import iso
from models.pages import Page, PageVersion

ANY_LIST = {"type": "array", "items": {"type": "object"}}
NULLABLE_TIME = {"type": ["string", "null"], "format": "date-time"}
# The answers' shapes, for the OpenAPI document (app/http/openapi.py), each field described.
_BLOCKS = described(ANY_LIST, "Its content: typed blocks (`heading`, `text`, `image`, `button`, `form`, `embed`, "
                              "`divider`), as written.")
_SEO = described({"type": "object"}, "What search engines and shares show: `Title`, `Description`, `ImageUrl`, "
                                     "`CanonicalUrl`, `NoIndex`.")
PAGE_SHAPE = shape(
    Id=described(STRING, "The page's id (`pag_...`)."),
    Slug=described(STRING, "Its path on the domain (the draft's)."),
    Title=described(STRING, "Its title (the draft's)."),
    Domain=described(STRING, "The custom domain (host) it is served on, or `\"\"` when none yet."),
    Status=described(STRING, "`rascunho` (not on the air) or `publicado`."),
    Blocks=described(ANY_LIST, "The draft's content: typed blocks (`heading`, `text`, `image`, `button`, `form`, "
                               "`embed`, `divider`)."),
    Seo=described({"type": "object"}, "The draft's SEO: `Title`, `Description`, `ImageUrl`, `CanonicalUrl`, "
                                      "`NoIndex`."),
    PublishedVersion=described({"type": ["integer", "null"]}, "The number of the version on the air, or null."),
    PublishedAt=described(NULLABLE_TIME, "When the version on the air was published (RFC 3339), or null."),
    CreatedAt=described(TIMESTAMP, "When it was created (RFC 3339)."),
    UpdatedAt=described(TIMESTAMP, "When its draft last changed (RFC 3339)."))
VERSION_SHAPE = shape(
    Number=described({"type": "integer"}, "The version's number: 1, 2 ... per page."),
    Slug=described(STRING, "The path it was published at."),
    Title=described(STRING, "Its title."),
    Blocks=_BLOCKS,
    Seo=_SEO,
    PublishedAt=described(TIMESTAMP, "When it was published (RFC 3339)."),
    Live=described({"type": "boolean"}, "Whether it is the version on the air."))
PAGE = reply_of(Pagina=described(PAGE_SHAPE, "The page."))
PAGES = reply_of(Paginas=described({"type": "array", "items": PAGE_SHAPE}, "The pages, newest first."),
                 NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                 HasMore=described({"type": "boolean"}, "Whether there is a next page."))
PUBLISHED = reply_of(Pagina=described(PAGE_SHAPE, "The page."),
                     Versao=described(VERSION_SHAPE, "The version now on the air."))
VERSIONS = reply_of(Versoes=described({"type": "array", "items": VERSION_SHAPE},
                                      "Every published version, newest first."))


def page_view(page: Page) -> dict:
    return {"Id": page.public_id, "Slug": page.slug, "Title": page.title, "Domain": page.domain,
            "Status": page.status, "Blocks": page.blocks, "Seo": page.seo, "PublishedVersion": page.live_version,
            "PublishedAt": iso(page.published_at) if page.live_version else None,
            "CreatedAt": iso(page.created_at), "UpdatedAt": iso(page.updated_at)}


def version_view(version: PageVersion, live: int | None) -> dict:
    return {"Number": version.number, "Slug": version.slug, "Title": version.title, "Blocks": version.blocks,
            "Seo": version.seo, "PublishedAt": iso(version.published_at), "Live": version.number == live}
