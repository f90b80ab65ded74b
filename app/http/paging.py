"""Paging, the one way every list route pages: offset pages and keyset pages.

The surface reads what the client asked for (``OffsetPage.of(request, ...)``,
``KeysetPage.of(request, ...)``: ``cursor`` and ``limit``, out-of-range values answered 422); the
service fetches the page with ``page.fetch(...)``, newest or oldest first as its query orders. Both
fetch one row more than the limit to know whether another page follows.

- Offset: ``cursor`` is an integer offset. ``NextCursor`` is always an integer, the offset after
  this page (on the last page too); ``HasMore`` says whether to go on.
- Keyset: ``cursor`` is opaque, the public id of the last item seen, signed for an audience
  (:mod:`app.http.cursors`: the tenant, the key's mode and the listing), so a cursor is never
  forged nor reused across accounts. Newest first by id; ``NextCursor`` is None on the last page.

Importing this module imports no Sanic: services use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from app.http import errors
from app.http.cursors import open_cursor, sign_cursor

if TYPE_CHECKING:
    from sanic import Request
    from tortoise.backends.base.client import BaseDBAsyncClient
    from tortoise.queryset import QuerySet

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    next_cursor: Any
    has_more: bool


def _int_param(request: Request, name: str, **bounds: int) -> int:
    # Imported here: app.http.query imports Sanic, and only a surface (holding a request) reads one.
    from app.http.query import int_param

    return int_param(request, name, **bounds)


def _limit(request: Request, default: int, maximum: int) -> int:
    return _int_param(request, "limit", default=default, low=1, high=maximum)


# PostgreSQL refuses an OFFSET past 64 bits; no list is that long, so a larger cursor is refused (422).
MAX_OFFSET = 1_000_000_000


@dataclass(frozen=True)
class OffsetPage:
    offset: int
    limit: int

    @classmethod
    def of(cls, request: Request, *, default_limit: int, max_limit: int) -> OffsetPage:
        offset = _int_param(request, "cursor", default=0, low=0, high=MAX_OFFSET)
        return cls(offset, _limit(request, default_limit, max_limit))

    async def fetch(self, query: QuerySet) -> Page:
        rows = await query.offset(self.offset).limit(self.limit + 1)
        items = rows[:self.limit]
        return Page(items, self.offset + len(items), len(rows) > self.limit)


@dataclass(frozen=True)
class KeysetPage:
    limit: int
    cursor: str | None
    secret_keys: tuple[str, ...]

    @classmethod
    def of(cls, request: Request, *, default_limit: int, max_limit: int) -> KeysetPage:
        return cls(_limit(request, default_limit, max_limit), request.args.get("cursor"),
                   request.app.ctx.settings.require_secret_keys())

    async def fetch(self, conn: BaseDBAsyncClient, query: QuerySet, *, audience: str) -> Page:
        """Newest first by id, after the item the cursor names (400 InvalidCursor when it names none)."""
        if self.cursor:
            after = open_cursor(self.cursor, secret_keys=self.secret_keys, audience=audience)
            anchor = await query.model.filter(public_id=str(after)).using_db(conn).values_list("id", flat=True)
            if not anchor:
                raise errors.InvalidCursor()
            query = query.filter(id__lt=anchor[0])
        rows = await query.order_by("-id").limit(self.limit + 1)
        more = len(rows) > self.limit
        items = rows[:self.limit]
        cursor = sign_cursor(items[-1].public_id, secret_keys=self.secret_keys, audience=audience) if more else None
        return Page(items, cursor, more)
