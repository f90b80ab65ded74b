"""The account's forms for its pages: the list, a new one, one edited (fields, a consent checkbox,
the CRM list its submissions join, an e-mail notice, what follows a submission), removal.
``GET/POST /v1/formularios``, ``GET/PATCH/DELETE /v1/formularios/{id}`` on the pages system; the
CRM lists offered come from the CRM's ``GET /v1/listas``.

Submissions are the runtime's: each becomes a contact in the CRM (joining the form's list), and
no system counts them per form, so the screens say where to find them instead of a number."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate
from app.console.brand import site
from app.console.contact import crm
from app.console.form import fields
from app.console.templating import render

bp = Blueprint("console_form")
# A form of 50 fields with their options posts more than the console's 64 KiB default.
MAX_FORM_BYTES = 256 * 1024
NOTICES = {"created": "Form created. Put it on a page with a form block.",
           "saved": "Form saved. Pages that show it use the change from their next submission."}


async def _lists(request: Request, account_id: str) -> list[dict] | None:
    listed = await crm.read(request, account_id, "/v1/listas", params={"limit": "200"}, not_found=False)
    return listed.get("listas", []) if listed is not None and listed.ok else None


@bp.get("/a/<account_id:id>/pages/forms", ctx_query=("done",))
async def forms_list(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    listed = await site.read(request, account_id, "/v1/formularios", params={"limit": "100"})
    return render(request, "form/forms.html", title="Forms", admin=site.can_edit(account),
                  forms=listed.get("Formularios", []) if listed is not None and listed.ok else None,
                  more=bool(listed is not None and listed.get("HasMore")),
                  notice="Form removed." if request.args.get("done") == "removed" else None)


async def _editor(request: Request, account: dict, values: dict, *, form: dict | None = None, status: int = 200,
                  more: bool = False, **context) -> HTTPResponse:
    rows = fields.shown_rows(values, more)
    return render(request, "form/form.html", status, title=form["Name"] if form else "New form", form=form,
                  values=values, rows=rows, types=fields.TYPES, lists=await _lists(request, account["Id"]),
                  admin=site.can_edit(account), notice=NOTICES.get(request.args.get("saved", "")) if status == 200 else None,
                  **context)


@bp.get("/a/<account_id:id>/pages/forms/new")
async def new(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _editor(request, account, fields.values_of(None))


async def _save(request: Request, account: dict, form: dict | None) -> HTTPResponse:
    account_id = account["Id"]
    values = fields.posted(request, form)
    if request.form.get("more"):  # "Add a field row": the same values, one more empty row, nothing saved
        return await _editor(request, account, values, form=form, more=True)
    if not values["name"]:
        return await _editor(request, account, values, form=form, status=400, errors={"name": "Enter the form's name"})
    body, origin = fields.body_of(values)
    if not body["Fields"]:
        return await _editor(request, account, values, form=form, status=400,
                             errors={"field-0-name": "Add at least one field"})
    if form is None:
        answer = await site.call(request, account_id, "POST", "/v1/formularios", json=body)
    else:
        answer = await site.call(request, account_id, "PATCH", f"/v1/formularios/{form['Id']}", json=body)
    if answer.status == 403:
        return await _editor(request, account, values, form=form, status=403,
                             errors={"_": "Only owners and admins change forms."})
    if not answer.ok:
        errors = fields.errors_of(answer.details, origin) or {"_": answer.message or "Herald could not save the form"}
        if answer.status == 503:
            errors = {"notify": "Herald cannot check this address just now. Try again in a minute."}
        return await _editor(request, account, values, form=form, status=answer.status, errors=errors)
    saved = answer.get("Formulario")
    return redirect(f"/a/{account_id}/pages/forms/{saved['Id']}?saved={'created' if form is None else 'saved'}",
                    status=303)


@bp.post("/a/<account_id:id>/pages/forms/new", ctx_max_body=MAX_FORM_BYTES)
async def create(request: Request, account_id: str) -> HTTPResponse:
    return await _save(request, await gate.require_account(request, account_id), None)


async def _form(request: Request, account_id: str, form_id: str) -> dict:
    return (await site.call(request, account_id, "GET", f"/v1/formularios/{form_id}")).get("Formulario")


@bp.get("/a/<account_id:id>/pages/forms/<form_id:id>", ctx_query=("saved",))
async def edit(request: Request, account_id: str, form_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    form = await _form(request, account_id, form_id)
    return await _editor(request, account, fields.values_of(form), form=form)


@bp.post("/a/<account_id:id>/pages/forms/<form_id:id>", ctx_max_body=MAX_FORM_BYTES)
async def update(request: Request, account_id: str, form_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _save(request, account, await _form(request, account_id, form_id))


@bp.post("/a/<account_id:id>/pages/forms/<form_id:id>/remove")
async def remove(request: Request, account_id: str, form_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    form = await _form(request, account_id, form_id)
    answer = await site.call(request, account_id, "DELETE", f"/v1/formularios/{form_id}")
    if not answer.ok:
        problem = {403: "Only owners and admins remove forms.",
                   409: "A page uses this form (its draft, live version or a test variant): take it out of the page first."}
        return await _editor(request, account, fields.values_of(form), form=form, status=answer.status,
                             errors={"_": problem.get(answer.status) or answer.message or "Herald could not remove the form"})
    return redirect(f"/a/{account_id}/pages/forms?done=removed", status=303)
