"""The account's image library for its pages: a grid of previews (each served by the pages system's
public ``/v1/public/midias/{id}``), upload (multipart ``arquivo``), import from a URL (the pages
system fetches it through its egress policy and refuses unsafe targets), removal. The same image
again is not stored twice: the pages system answers the one it has (200), and the screen says so.
``GET/POST /v1/midias``, ``POST /v1/midias/importar``, ``DELETE /v1/midias/{id}`` on the pages system."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import forms, gate
from app.console.brand import site
from app.console.templating import render

bp = Blueprint("console_media")
MAX_FILE_BYTES = 5 * 1024 * 1024  # the pages system's own bound (app/pages/media/service.py)
MAX_UPLOAD_BYTES = MAX_FILE_BYTES + 64 * 1024
# The pages system decodes the whole image before it answers (and an import fetches it first).
UPLOAD_SECONDS = 30
NOTICES = {"uploaded": "Image added to the library.", "imported": "Image imported into the library.",
           "duplicate": "The library already has this image: nothing was added. It is marked below.",
           "removed": "Image removed."}


async def _page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    listed = await site.read(request, account["Id"], "/v1/midias", params={"limit": "100"})
    media = listed.get("Midias", []) if listed is not None and listed.ok else None
    notice = NOTICES.get(request.args.get("done", "")) if status == 200 else None
    context.setdefault("values", {"url": ""})
    return render(request, "media/media.html", status, title="Media", media=media, notice=notice,
                  more=bool(listed is not None and listed.get("HasMore")), admin=site.can_edit(account),
                  highlight=request.args.get("image", ""), sources={item["Id"]: site.media_src(request, item)
                                                                   for item in media or []},
                  max_mb=MAX_FILE_BYTES // (1024 * 1024), headers=site.headers(request), **context)


def _done(account_id: str, answer, verb: str) -> HTTPResponse:
    done = "duplicate" if answer.status == 200 else verb
    return redirect(f"/a/{account_id}/pages/media?done={done}&image={answer.get('Midia')['Id']}", status=303)


@bp.get("/a/<account_id:id>/pages/media", ctx_query=("done", "image"))
async def library(request: Request, account_id: str) -> HTTPResponse:
    return await _page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/pages/media", ctx_max_body=MAX_UPLOAD_BYTES)
async def upload(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    sent = request.files.get("file") if request.files else None
    if sent is None or not sent.body:
        return await _page(request, account, 400, errors={"file": "Select an image file"})
    if len(sent.body) > MAX_FILE_BYTES:
        return await _page(request, account, 413, errors={"file": f"The image must be {MAX_FILE_BYTES // (1024 * 1024)} MB or smaller"})
    answer = await site.call(request, account_id, "POST", "/v1/midias", timeout=UPLOAD_SECONDS, files={
        "arquivo": (sent.name or "image", bytes(sent.body), sent.type or "application/octet-stream")})
    if answer.status == 403:
        return await _page(request, account, 403, errors={"_": "Only owners and admins add images."})
    if answer.status == 413:
        return await _page(request, account, 413, errors={"file": f"The image must be {MAX_FILE_BYTES // (1024 * 1024)} MB or smaller"})
    if answer.status == 415:
        return await _page(request, account, 415, errors={"file": "The file must be a PNG, JPEG, GIF or WebP image"})
    if not answer.ok:
        return await _page(request, account, answer.status, errors=site.field_errors(
            answer, {"arquivo": "file"}, "Herald could not read the image"))
    return _done(account_id, answer, "uploaded")


@bp.post("/a/<account_id:id>/pages/media/import")
async def import_url(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    values = forms.values(request, "url")
    if not values["url"]:
        return await _page(request, account, 400, values=values, errors={"url": "Enter the image's address"})
    answer = await site.call(request, account_id, "POST", "/v1/midias/importar", json={"Url": values["url"]},
                             timeout=UPLOAD_SECONDS)
    if answer.status == 403:
        return await _page(request, account, 403, values=values, errors={"_": "Only owners and admins add images."})
    if answer.status == 413:
        return await _page(request, account, 413, values=values,
                           errors={"url": f"The image must be {MAX_FILE_BYTES // (1024 * 1024)} MB or smaller"})
    if answer.status == 415:
        return await _page(request, account, 415, values=values,
                           errors={"url": "The address does not give a PNG, JPEG, GIF or WebP image"})
    if not answer.ok:
        errors = site.field_errors(answer, {"Url": "url", "body": "url"}, "Herald could not import the image")
        if "url" in errors:
            errors["url"] = "Herald cannot fetch this address: " + errors["url"][:1].lower() + errors["url"][1:]
        return await _page(request, account, answer.status, values=values, errors=errors)
    return _done(account_id, answer, "imported")


@bp.post("/a/<account_id:id>/pages/media/<media_id:id>/remove")
async def remove(request: Request, account_id: str, media_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await site.call(request, account_id, "DELETE", f"/v1/midias/{media_id}")
    if answer.status == 403:
        return await _page(request, account, 403, errors={"_": "Only owners and admins remove images."})
    if answer.status == 409:
        return await _page(request, account, 409, errors={
            "_": "A page shows this image (its draft, live version or a test variant): take it out of the page first."})
    if not answer.ok:
        return await _page(request, account, answer.status, errors={"_": answer.message or "Herald could not remove the image"})
    return redirect(f"/a/{account_id}/pages/media?done=removed", status=303)
