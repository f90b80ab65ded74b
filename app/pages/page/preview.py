"""Signed preview links: a draft (or any published version) seen on the runtime before it goes live.

    POST /v1/paginas/{id}/previa[?versao=n]   (pages:read) a link to the draft, or to version n, valid
                                              PREVIEW_SECONDS; {Previa: {Url, Token, Version, ExpiresAt}}
    GET /internal/v1/previas/{token}          (service credential) what the runtime renders for a link:
                                              the page as the published route gives it; 404 for a forged
                                              token or a page gone, 410 PreviewExpired past its expiry

The token is signed here alone (kit/sealing.py ``Sealer("pages").sign``: HMAC-SHA256 under a key
derived from SECRET_KEY for this purpose; the runtime holds no key and asks this route about every
link it is given). It names the account, the page and the version (0: the draft as it is when the
link is opened, so a live preview shows each saved change) and its expiry. docs/pages.md, "Previews".
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.openapi import NULLABLE_STRING, STRING, TIMESTAMP, answers, described, reply_of, shape
from app.http.responses import iso, reply
from app.pages import db
from app.pages.brand.v1 import BRAND_ELEMENTS, brand_view
from app.pages.errors import PreviewExpired
from app.pages.gate.v1 import tenant_of
from app.pages.page import service
from kit.sealing import Sealer, SignatureExpired
from models.pages import Brand, Page, PageVersion

PURPOSE = "page-preview"
PREVIEW_SECONDS = 30 * 60
PATH = "/_preview/"  # on the runtime: "_" is never in a slug, so no page can shadow it
SEALER = Sealer("pages")

bp = Blueprint("v1_page_preview", url_prefix="/v1")
internal_bp = Blueprint("internal_page_preview", url_prefix="/internal/v1")

PREVIEW = reply_of(Previa=described(shape(
    Url=described(STRING, "The preview on the publishing runtime: open it or frame it (no credential needed)."),
    Token=described(STRING, "The signed token in the URL."),
    Version=described({"type": ["integer", "null"]}, "The version shown, or null for the draft."),
    ExpiresAt=described(TIMESTAMP, "When the link stops working (RFC 3339).")), "The signed preview link."))
PREVIEWED = reply_of(Pagina=described(shape(
    Id=described(STRING, "The page's id."),
    TenantId=described(STRING, "The account it belongs to."),
    Domain=described(STRING, "The host it is (or will be) served on, or `\"\"`."),
    Slug=described(STRING, "Its path."),
    Title=described(STRING, "Its title."),
    Blocks=described({"type": "array", "items": {"type": "object"}}, "The blocks to render."),
    Seo=described({"type": "object"}, "Its SEO fields."),
    Version=described({"type": ["integer", "null"]}, "The version shown, or null for the draft."),
    UpdatedAt=described(NULLABLE_STRING, "When the content shown last changed (RFC 3339)."),
    Brand=described(BRAND_ELEMENTS, "The account's brand elements.")), "The page as the preview shows it."))


def sign(tenant: str, page_id: str, version: int, *, ttl: int = PREVIEW_SECONDS) -> str:
    return SEALER.sign(PURPOSE, {"t": tenant, "p": page_id, "v": version}, ttl)


def opened(token: str) -> dict:
    """The token's claims; NotFound when forged or malformed, PreviewExpired past its expiry."""
    if len(token) > 512:
        raise errors.NotFound("Preview not found.")
    try:
        claims = SEALER.unsign(PURPOSE, token)
    except SignatureExpired:
        raise PreviewExpired() from None
    if (claims is None or not isinstance(claims.get("t"), str) or not isinstance(claims.get("p"), str)
            or not isinstance(claims.get("v"), int)):
        raise errors.NotFound("Preview not found.")
    return claims


@bp.post("/paginas/<page_id:id>/previa", ctx_scope="pages:read", ctx_query=("versao",),
         ctx_responses=answers({200: PREVIEW}))
async def create_preview(request: Request, page_id: str) -> HTTPResponse:
    """A signed link showing the draft (or version ``versao``) on the runtime for 30 minutes."""
    tenant = tenant_of(request)
    raw = request.args.get("versao", "")
    if raw and not raw.isdigit():
        raise errors.ValidationError("versao must be a version number.", details={"versao": "a whole number"})
    number = int(raw or 0)
    conn = db.connection()
    page = await service.find(conn, tenant, page_id)
    if number and not await PageVersion.filter(page_id=page.id, number=number).using_db(conn).exists():
        raise errors.NotFound("Version not found.")
    token = sign(tenant, page.public_id, number)
    base = request.app.ctx.settings.url_of("runtime").rstrip("/")
    return reply(request, {"Previa": {"Url": base + PATH + token, "Token": token, "Version": number or None,
                                      "ExpiresAt": iso_in(PREVIEW_SECONDS)}})


def iso_in(seconds: int) -> str:
    return iso(datetime.fromtimestamp(int(time.time()) + seconds, UTC))


@internal_bp.get("/previas/<token:str>", ctx_auth="service", ctx_errors=(410,),
                 ctx_responses=answers({200: PREVIEWED}))
async def previewed(request: Request, token: str) -> HTTPResponse:
    """The page a signed preview link shows (404 forged or gone, 410 expired)."""
    claims = opened(token)
    conn = db.connection()
    page = await Page.filter(tenant_id=claims["t"], public_id=claims["p"]).using_db(conn).first()
    if page is None:
        raise errors.NotFound("Preview not found.")
    source, moment = page, page.updated_at
    if claims["v"]:
        source = await PageVersion.get_or_none(page_id=page.id, number=claims["v"]).using_db(conn)
        if source is None:
            raise errors.NotFound("Preview not found.")
        moment = source.published_at
    brand = await Brand.get_or_none(tenant_id=page.tenant_id).using_db(conn)
    return reply(request, {"Pagina": {
        "Id": page.public_id, "TenantId": page.tenant_id, "Domain": page.domain, "Slug": source.slug,
        "Title": source.title, "Blocks": source.blocks, "Seo": source.seo, "Version": claims["v"] or None,
        "UpdatedAt": iso(moment), "Brand": brand_view(brand)}})
