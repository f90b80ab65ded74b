"""Media (scopes ``pages:read``, ``pages:write``):

    GET /v1/midias                      the account's images, newest first
    POST /v1/midias                     multipart upload, field ``arquivo`` (201 new; 200 the existing
                                        one for a duplicate, nothing written)
    POST /v1/midias/importar            ``{"Url": "https://..."}``: fetched through the egress policy
    DELETE /v1/midias/{id}              the row, and the file once no other row names its content (409
                                        while a page uses the image)
    GET /v1/public/midias/{id}          public: the image, by id, nosniff, cacheable for a year
"""

from __future__ import annotations

import asyncio

from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import Body, parse_body
from app.http.openapi import (BINARY, NO_CONTENT, NULLABLE_STRING, STRING, TIMESTAMP, Schema, answers,
                              described, fields, reply_of, shape)
from app.http.paging import KeysetPage
from app.http.responses import iso, no_content, reply
from app.pages import db
from app.pages.gate.v1 import tenant_of
from app.pages.media import service
from models.pages import Media

bp = Blueprint("v1_media", url_prefix="/v1")

MEDIA_SHAPE = shape(
    Id=described(STRING, "The image's id (`mid_...`)."),
    ContentType=described(STRING, "Its type, read from its bytes: `image/png`, `image/jpeg`, `image/gif` or "
                                  "`image/webp`."),
    Size=described({"type": "integer"}, "Its size in bytes (at most 5 MiB)."),
    Sha256=described(STRING, "The SHA-256 of its bytes, in hex (one image per content and account)."),
    Filename=described(STRING, "The uploaded file's name, or `\"\"` (an import)."),
    SourceUrl=described(NULLABLE_STRING, "The URL it was imported from, or null (an upload)."),
    Url=described(STRING, "Where it is served, public: `/v1/public/midias/<id>`."),
    CreatedAt=described(TIMESTAMP, "When it was stored (RFC 3339)."))
MEDIA = reply_of(Midia=described(MEDIA_SHAPE, "The image."))
MEDIAS = reply_of(Midias=described({"type": "array", "items": MEDIA_SHAPE}, "The images, newest first."),
                  NextCursor=described(NULLABLE_STRING, "Give it as `cursor` for the next page; null on the last."),
                  HasMore=described({"type": "boolean"}, "Whether there is a next page."))
_FILE = described(BINARY, "The image: PNG, JPEG, GIF or WebP, at most 5 MiB.")
IMAGE = Schema({"type": "string", "format": "binary"}, ("image/png", "image/jpeg", "image/gif", "image/webp"))


class MediaImport(Body):
    url: str = Field(min_length=1, max_length=2048)
    """The image's https URL, fetched once and kept."""


def media_view(row: Media) -> dict:
    return {"Id": row.public_id, "ContentType": row.content_type, "Size": row.size, "Sha256": row.sha256,
            "Filename": row.filename, "SourceUrl": row.source_url, "Url": f"/v1/public/midias/{row.public_id}",
            "CreatedAt": iso(row.created_at)}


def _directory(request: Request):
    return service.media_dir(request.app.ctx.settings.var_dir)


@bp.get("/midias", ctx_scope="pages:read", ctx_query=("cursor", "limit"), ctx_responses=answers({200: MEDIAS}))
async def list_media(request: Request) -> HTTPResponse:
    """The account's images, newest first."""
    found = await service.list_media(db.connection(), tenant_of(request),
                                     KeysetPage.of(request, default_limit=20, max_limit=100))
    return reply(request, {"Midias": [media_view(row) for row in found.items], "NextCursor": found.next_cursor,
                           "HasMore": found.has_more})


# The body is multipart/form-data (field ``arquivo``), described by ctx_multipart (docs/openapi.md).
@bp.post("/midias", ctx_scope="pages:write", ctx_errors=(400, 413, 415, 422),
         ctx_multipart=fields(arquivo=_FILE), ctx_multipart_required=("arquivo",),
         ctx_responses=answers({200: MEDIA, 201: MEDIA}))
async def upload_media(request: Request) -> HTTPResponse:
    """Uploads an image (multipart field ``arquivo``); a duplicate answers the existing one."""
    upload = request.files.get("arquivo") if request.files else None
    if upload is None:
        raise errors.ValidationError("Send the image as multipart/form-data in the field 'arquivo'.",
                                     details={"arquivo": "required"})
    data = bytes(upload.body)
    content_type = await service.inspect(data, field="arquivo")
    async with db.transaction() as conn:
        row, created = await service.store(conn, tenant_of(request), data, content_type,
                                           directory=_directory(request), filename=upload.name or "")
    return reply(request, {"Midia": media_view(row)}, status=201 if created else 200)


@bp.post("/midias/importar", ctx_scope="pages:write", ctx_body=MediaImport, ctx_errors=(413, 415, 422),
         ctx_responses=answers({200: MEDIA, 201: MEDIA}))
async def import_media(request: Request) -> HTTPResponse:
    """Imports an image from a URL (SSRF-safe); a duplicate answers the existing one."""
    body = parse_body(request, MediaImport)
    data = await service.fetch(body.url, allow_loopback=request.app.ctx.settings.webhooks_allow_loopback)
    content_type = await service.inspect(data, field="Url")
    async with db.transaction() as conn:
        row, created = await service.store(conn, tenant_of(request), data, content_type,
                                           directory=_directory(request), source_url=body.url)
    return reply(request, {"Midia": media_view(row)}, status=201 if created else 200)


@bp.delete("/midias/<media_id:id>", ctx_scope="pages:write", ctx_errors=(409,),
           ctx_responses=answers({204: NO_CONTENT}))
async def delete_media(request: Request, media_id: str) -> HTTPResponse:
    """Deletes an image no page uses; its file goes once no other row names the same content."""
    async with db.transaction() as conn:
        await service.delete(conn, tenant_of(request), media_id, directory=_directory(request))
    return no_content()


@bp.get("/public/midias/<media_id:id>", ctx_public=True, ctx_responses=answers({200: IMAGE, 304: NO_CONTENT}))
async def public_media(request: Request, media_id: str) -> HTTPResponse:
    """The image, by id (public; the database names the file)."""
    row = await service.find(db.connection(), None, media_id)
    if row.content_type not in service.ALLOWED_TYPES:
        raise errors.NotFound("Media not found.")
    try:
        data = await asyncio.to_thread(service.file_of(_directory(request), row).read_bytes)
    except FileNotFoundError:
        raise errors.NotFound("Media not found.") from None
    etag = f'"{row.sha256}"'
    headers = {"X-Content-Type-Options": "nosniff", "Cache-Control": "public, max-age=31536000, immutable",
               "ETag": etag, "Content-Disposition": "inline", "Content-Security-Policy": "default-src 'none'"}
    if request.headers.get("if-none-match") == etag:
        return HTTPResponse(status=304, headers=headers)
    return HTTPResponse(data, status=200, headers=headers, content_type=row.content_type)
