"""The account's brand for its pages: logo, two colours and a font, set together
(``GET/PUT /v1/configuracoes/marca`` on the pages system). An empty field deletes that element."""

from __future__ import annotations

import re

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate
from app.console.brand import site
from app.console.templating import render

bp = Blueprint("console_brand")
HEX = re.compile(r"[0-9a-fA-F]{6}")
COLOR = re.compile(r"#[0-9a-fA-F]{6}")  # the pages system's own check (app/pages/validation.py)
FIELDS = {"logo": "LogoUrl", "primary": "PrimaryColor", "secondary": "SecondaryColor", "font": "Font"}


async def _page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    found = await site.read(request, account["Id"], "/v1/configuracoes/marca")
    brand = found.get("Marca") if found is not None and found.ok else None
    if "values" not in context and brand is not None:
        context["values"] = {name: brand.get(key) or "" for name, key in FIELDS.items()}
    return render(request, "brand/brand.html", status, title="Brand", brand=brand, admin=site.can_edit(account),
                  notice="Brand saved. Published pages show it within a minute."
                  if request.args.get("saved") == "1" and status == 200 else None, **context)


@bp.get("/a/<account_id:id>/pages/brand", ctx_query=("saved",))
async def brand(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/pages/brand")
async def save(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, *FIELDS)
    errors = {}
    for name, label in (("primary", "primary"), ("secondary", "secondary")):
        if HEX.fullmatch(values[name]):
            values[name] = "#" + values[name]  # people often type the six digits alone
        if values[name] and not COLOR.fullmatch(values[name]):
            errors[name] = f"Enter the {label} colour as # and six hexadecimal digits, like #1a73e8"
    if errors:
        return await _page(request, account, 400, values=values, errors=errors)
    answer = await site.call(request, account_id, "PUT", "/v1/configuracoes/marca",
                             json={key: values[name] for name, key in FIELDS.items()})
    if answer.status == 403:
        return await _page(request, account, 403, values=values, errors={"_": "Only owners and admins change the brand."})
    if not answer.ok:
        return await _page(request, account, answer.status, values=values, errors=site.field_errors(
            answer, {key: name for name, key in FIELDS.items()}, "Herald could not save the brand. Try again."))
    return redirect(f"/a/{account_id}/pages/brand?saved=1", status=303)
