"""The console's calls to the pages system's ``/v1`` (pages, versions, previews, custom domains) as
the person, for the account of the page (``X-Service-Tenant``), through the one client
(app/console/upstream.py). The pages system decides with the identity server (product ``paginas``:
owners and admins hold ``admin``, members ``leitor``, who read).

A 404 is the console's 404 page (a missing page and an account the person cannot use look alike).
A pages system that does not answer raises ``upstream.Unavailable``; a read for one part of a page
answers None instead and the part says it is unavailable."""

from __future__ import annotations

from typing import Any

from sanic import Request

from app.console import account_api, gate, upstream

# The pages system's state values in words.
PAGE_STATES = {"rascunho": "Draft", "publicado": "Published"}
DOMAIN_STATES = {"nao_verificado": "Not verified", "verificado": "Verified"}


async def call(request: Request, account_id: str, method: str, path: str, **options: Any) -> upstream.Answer:
    return await account_api.call(request, account_id, "pages", method, path, **options)


async def read(request: Request, account_id: str, path: str, **options: Any) -> upstream.Answer | None:
    """A read for one part of a page: None when the pages system is unavailable or refuses (the part says so)."""
    return await account_api.read(request, account_id, "pages", path, only_ok=True, **options)


async def domains(request: Request, account_id: str) -> list[dict] | None:
    """The account's custom domains (every one: an account has few), or None when unavailable."""
    found, cursor = [], None
    for _ in range(10):
        answer = await read(request, account_id, "/v1/dominios",
                            params={"limit": "100", **({"cursor": cursor} if cursor else {})})
        if answer is None:
            return None
        found += answer.get("Dominios") or []
        cursor = answer.get("NextCursor")
        if not answer.get("HasMore") or not cursor:
            break
    return found


def can_edit(account: dict) -> bool:
    """Owners and admins hold the pages product's admin grant (they edit and publish); members read."""
    return gate.is_admin(account)


def served_nowhere(page: dict, domains: list[dict] | None) -> str | None:
    """Why a page on the air is seen by nobody yet (no domain, or one not verified), or None."""
    if not page.get("Domain"):
        return "It names no domain, so it is served nowhere: choose a verified domain and publish again."
    if domains is None:
        return None
    match = next((item for item in domains if item.get("Name") == page["Domain"]), None)
    if match is None:
        return (f"{page['Domain']} is not one of this account's domains, so the page is served nowhere yet: "
                "add the domain and verify it.")
    if not match.get("Verified"):
        return (f"{page['Domain']} is not verified yet, so the page is served nowhere yet: "
                "publish its DNS record and verify it.")
    return None
