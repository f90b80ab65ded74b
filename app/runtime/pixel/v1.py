"""Pixels of the account (identity session, product ``analytics``; reads ``leitor``, writes ``admin``).

    GET/POST /v1/pixels                          list, create
    GET/PATCH /v1/pixels/{id}                    one pixel; PATCH is partial (absent fields untouched)

Every answer carries ``Dropped`` (an addition to the contract): batches of this pixel the collection
edge refused past a bound (429) since the streams' Redis started keeping them; null when Redis cannot say.
    POST /v1/pixels/{id}/rotate-credential       a new credential; the old one is refused from now on
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import answers
from app.http.paging import OffsetPage
from app.http.responses import reply
from app.runtime import db
from app.runtime.collect.service import dropped_of
from app.runtime.gate.v1 import ADMIN, READER, access_of
from app.runtime.pixel import mirror, service
from app.runtime.pixel.schemas import MAX_BODY_BYTES, PixelCreate, PixelUpdate
from app.runtime.pixel.views import PIXEL, PIXELS, pixel_view

bp = Blueprint("v1_pixels", url_prefix="/v1")

AUTH = "session"
ERRORS = (403, 404, 503)


def _sites_url(request: Request) -> str:
    return request.app.ctx.settings.url_of("runtime")


async def _view(request: Request, pixel) -> dict:
    dropped = await dropped_of(request.app.ctx.streams, [pixel.public_id])
    return pixel_view(pixel, _sites_url(request), dropped[pixel.public_id])


@bp.get("/pixels", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS, ctx_query=("cursor", "limit"),
        ctx_responses=answers({200: PIXELS}))
async def list_pixels(request: Request) -> HTTPResponse:
    """The account's pixels, oldest first."""
    page = OffsetPage.of(request, default_limit=20, max_limit=100)
    found = await service.list_pixels(db.connection(), access_of(request), page)
    dropped = await dropped_of(request.app.ctx.streams, [row.public_id for row in found.items])
    return reply(request, {"Pixels": [pixel_view(row, _sites_url(request), dropped[row.public_id])
                                      for row in found.items],
                           "NextCursor": found.next_cursor, "HasMore": found.has_more})


@bp.post("/pixels", ctx_role=ADMIN, ctx_auth=AUTH, ctx_errors=ERRORS + (422,), ctx_body=PixelCreate,
         ctx_responses=answers({201: PIXEL}))
async def create_pixel(request: Request) -> HTTPResponse:
    """A pixel for one site; the answer carries its credential and the snippet to paste."""
    body = parse_body(request, PixelCreate, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        made = await service.create_pixel(conn, access_of(request), name=body.name, site=body.site,
                                          replay=body.replay)
    await mirror.publish(request.app.ctx.streams, made)
    return reply(request, {"Pixel": await _view(request, made)}, status=201)


@bp.get("/pixels/<pixel_id:id>", ctx_role=READER, ctx_auth=AUTH, ctx_errors=ERRORS,
        ctx_responses=answers({200: PIXEL}))
async def get_pixel(request: Request, pixel_id: str) -> HTTPResponse:
    """One pixel of the account."""
    found = await service.pixel(db.connection(), access_of(request), pixel_id)
    return reply(request, {"Pixel": await _view(request, found)})


@bp.patch("/pixels/<pixel_id:id>", ctx_role=ADMIN, ctx_auth=AUTH, ctx_errors=ERRORS + (422,), ctx_body=PixelUpdate,
          ctx_responses=answers({200: PIXEL}))
async def update_pixel(request: Request, pixel_id: str) -> HTTPResponse:
    """Partial update; a new Site moves the pixel to a new credential."""
    changes = parse_body(request, PixelUpdate, max_bytes=MAX_BODY_BYTES).changes()
    async with db.transaction() as conn:
        found = await service.update_pixel(conn, access_of(request), pixel_id, changes)
    await mirror.publish(request.app.ctx.streams, found)
    return reply(request, {"Pixel": await _view(request, found)})


@bp.post("/pixels/<pixel_id:id>/rotate-credential", ctx_role=ADMIN, ctx_auth=AUTH, ctx_errors=ERRORS,
         ctx_responses=answers({200: PIXEL}))
async def rotate_credential(request: Request, pixel_id: str) -> HTTPResponse:
    """A new credential for the pixel; snippets with the old one are refused from now on."""
    async with db.transaction() as conn:
        found = await service.rotate_credential(conn, access_of(request), pixel_id)
    await mirror.publish(request.app.ctx.streams, found)
    return reply(request, {"Pixel": await _view(request, found)})
