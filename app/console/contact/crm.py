"""The console's calls to the CRM's ``/v1`` (contacts, lists, segments, imports) as the person, for
the account of the page (``X-Service-Tenant``), through the one client (app/console/upstream.py).

The CRM answers 404 both for a missing item and for an account the person cannot use the CRM in:
both are the console's 404 page. A CRM that does not answer raises ``upstream.Unavailable``; the
caller says that part of the page is unavailable where the rest can still be shown."""

from __future__ import annotations

from typing import Any

from sanic import Request

from app.console import account_api, gate, upstream


async def call(request: Request, account_id: str, method: str, path: str, **options: Any) -> upstream.Answer:
    return await account_api.call(request, account_id, "crm", method, path, **options)


async def read(request: Request, account_id: str, path: str, **options: Any) -> upstream.Answer | None:
    """A read for one part of a page: None when the CRM is unavailable (the part says so)."""
    return await account_api.read(request, account_id, "crm", path, **options)


def can_edit(account: dict) -> bool:
    """Owners and admins hold the CRM's admin grant, members its reader grant (app/platform/member/grants.py)."""
    return gate.is_admin(account)
