"""The account's brand: ``GET/PUT /v1/configuracoes/marca`` (``pages:read`` / ``pages:write``).

Four elements (``LogoUrl``, ``PrimaryColor``, ``SecondaryColor``, ``Font``) always sent together;
an empty string deletes the element, which then reads as null. No brand yet: every element null.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import parse_body
from app.http.openapi import NULLABLE_STRING, answers, described, reply_of, shape
from app.http.responses import reply
from app.pages import db
from app.pages.brand.schemas import BrandPut
from app.pages.gate.v1 import tenant_of
from models.pages import Brand

bp = Blueprint("v1_brand", url_prefix="/v1")

BRAND_ELEMENTS = shape(
    LogoUrl=described(NULLABLE_STRING, "The logo's URL, or null when not set."),
    PrimaryColor=described(NULLABLE_STRING, "The primary color (`#rrggbb`), or null."),
    SecondaryColor=described(NULLABLE_STRING, "The secondary color (`#rrggbb`), or null."),
    Font=described(NULLABLE_STRING, "The font's name, or null."))
BRAND = reply_of(Marca=described(BRAND_ELEMENTS, "The account's brand."))


def brand_view(brand: Brand | None) -> dict:
    if brand is None:
        return {"LogoUrl": None, "PrimaryColor": None, "SecondaryColor": None, "Font": None}
    return {"LogoUrl": brand.logo_url, "PrimaryColor": brand.primary_color,
            "SecondaryColor": brand.secondary_color, "Font": brand.font}


@bp.get("/configuracoes/marca", ctx_scope="pages:read", ctx_responses=answers({200: BRAND}))
async def get_brand(request: Request) -> HTTPResponse:
    """The account's brand elements (null when not set)."""
    brand = await Brand.get_or_none(tenant_id=tenant_of(request)).using_db(db.connection())
    return reply(request, {"Marca": brand_view(brand)})


@bp.put("/configuracoes/marca", ctx_scope="pages:write", ctx_body=BrandPut, ctx_responses=answers({200: BRAND}))
async def put_brand(request: Request) -> HTTPResponse:
    """Sets the four brand elements at once; an empty one is deleted."""
    values = parse_body(request, BrandPut).stored()
    async with db.transaction() as conn:
        brand, _ = await Brand.update_or_create(defaults=values, tenant_id=tenant_of(request), using_db=conn)
    return reply(request, {"Marca": brand_view(brand)})
