"""Forms of an account (the runtime reads one by id through the internal route, tenant in the answer)."""

from __future__ import annotations

import json

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from models.pages import Form


async def create_form(conn: BaseDBAsyncClient, tenant: str, *, name: str, fields: list[dict], consent: dict | None,
                      destination: dict, success_message: str, redirect_url: str | None) -> Form:
    destination = dict(destination)
    if redirect_url:
        destination["RedirectUrl"] = redirect_url
    return await Form.create(using_db=conn, tenant_id=tenant, name=name.strip(), fields_spec=fields, consent=consent,
                             destination=destination, success_message=success_message)


async def find(conn: BaseDBAsyncClient, tenant: str | None, form_id: str) -> Form:
    """The account's form (``tenant`` None: any account's, for the service credential only)."""
    query = Form.filter(public_id=form_id).using_db(conn)
    if tenant is not None:
        query = query.filter(tenant_id=tenant)
    form = await query.first()
    if form is None:
        raise errors.NotFound("Form not found.")
    return form


async def delete(conn: BaseDBAsyncClient, tenant: str, form_id: str) -> None:
    """Deletes a form no page uses (its draft, a variant or its live version): 409 otherwise."""
    form = await find(conn, tenant, form_id)
    block = json.dumps([{"FormId": form.public_id}])
    rows = await conn.execute_query_dict(
        "SELECT 1 FROM pages p WHERE p.tenant_id = $1 AND (p.blocks @> $2::jsonb OR EXISTS ("
        "  SELECT 1 FROM page_versions v WHERE v.page_id = p.id AND v.number = p.live_version"
        "  AND v.blocks @> $2::jsonb) OR EXISTS (SELECT 1 FROM page_experiments e JOIN page_variants r"
        "  ON r.experiment_id = e.id WHERE e.page_id = p.id AND r.blocks @> $2::jsonb)) LIMIT 1", [tenant, block])
    if rows:
        raise errors.Conflict("A page uses this form; remove it from the page first.")
    await form.delete(using_db=conn)


async def list_forms(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, Form.filter(tenant_id=tenant).using_db(conn), audience=f"forms:{tenant}")
