"""Forms of an account (the runtime reads one by id through the internal route, tenant in the answer)."""

from __future__ import annotations

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from app.pages.page.service import used_in_pages
from kit import patterns
from models.pages import Form


def check_patterns(fields: list[dict]) -> None:
    """Every field's ``Pattern`` must compile in RE2, the engine the runtime runs it with (a
    backtracking engine could be held for seconds by one submission): 422 naming each field whose
    pattern RE2 refuses (backreferences, lookaround, ...), with RE2's reason."""
    problems: dict[str, str] = {}
    for index, field in enumerate(fields):
        if field.get("Pattern") is None:
            continue
        try:
            patterns.compile(field["Pattern"])
        except patterns.UnsupportedPattern as exc:
            problems[f"Fields.{index}.Pattern"] = (f"field {field.get('Name')!r}: RE2 cannot use this pattern ({exc}); "
                                                   "backreferences and lookaround are not supported")
    if problems:
        first = next(iter(problems))
        raise errors.Unprocessable(f"Field {first!r}: {problems[first]}.", details=problems)


async def create_form(conn: BaseDBAsyncClient, tenant: str, *, name: str, fields: list[dict], consent: dict | None,
                      destination: dict, success_message: str, redirect_url: str | None) -> Form:
    check_patterns(fields)
    destination = dict(destination)
    if redirect_url:
        destination["RedirectUrl"] = redirect_url
    return await Form.create(using_db=conn, tenant_id=tenant, name=name.strip(), fields_spec=fields, consent=consent,
                             destination=destination, success_message=success_message)


async def find(conn: BaseDBAsyncClient, tenant: str | None, form_id: str, *, lock: bool = False) -> Form:
    """The account's form (``tenant`` None: any account's, for the service credential only)."""
    query = Form.filter(public_id=form_id).using_db(conn)
    if lock:
        query = query.select_for_update()
    if tenant is not None:
        query = query.filter(tenant_id=tenant)
    form = await query.first()
    if form is None:
        raise errors.NotFound("Form not found.")
    return form


async def update_form(conn: BaseDBAsyncClient, tenant: str, form_id: str, changes: dict) -> Form:
    """``changes``: the fields sent (FormPatch.changes()); the rest stays. A new ``destination``
    keeps the redirect unless ``redirect_url`` is sent too."""
    if "fields" in changes:
        check_patterns(changes["fields"])
    form = await find(conn, tenant, form_id, lock=True)
    if "name" in changes:
        form.name = changes["name"].strip()
    if "fields" in changes:
        form.fields_spec = changes["fields"]
    if "consent" in changes:
        form.consent = changes["consent"]
    if "success_message" in changes:
        form.success_message = changes["success_message"]
    destination = dict(changes["destination"]) if "destination" in changes else dict(form.destination)
    redirect = changes["redirect_url"] if "redirect_url" in changes else form.destination.get("RedirectUrl")
    destination.pop("RedirectUrl", None)
    if redirect:
        destination["RedirectUrl"] = redirect
    form.destination = destination
    await form.save(using_db=conn)
    return form


async def delete(conn: BaseDBAsyncClient, tenant: str, form_id: str) -> None:
    """Deletes a form no page uses (its draft, a variant or its live version): 409 otherwise."""
    form = await find(conn, tenant, form_id, lock=True)
    if await used_in_pages(conn, tenant, {"FormId": form.public_id}):
        raise errors.Conflict("A page uses this form; remove it from the page first.")
    await form.delete(using_db=conn)


async def list_forms(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, Form.filter(tenant_id=tenant).using_db(conn), audience=f"forms:{tenant}")
