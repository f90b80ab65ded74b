"""The console's calls to the pages system's ``/v1`` (brand, media, forms, redirects, AI generation)
as the person, for the account of the page (``X-Service-Tenant``), through the one client
(app/console/upstream.py), as app/console/contact/crm.py does for the CRM.

The pages system answers 404 both for a missing item and for another account's: both are the
console's 404 page. A pages system that does not answer raises ``upstream.Unavailable``; the caller
says that part of the page is unavailable where the rest can still be shown.

Images are served by the pages system itself (``GET /v1/public/midias/{id}``, public, at its public
URL): the screens that show them widen the console's ``img-src`` to that one origin (:func:`headers`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx
from sanic import Request

from app.console import account_api, cookies, gate, guard, upstream
from app.http import errors
from app.http.services import services

# The generation route's own 5xx answers (a provider that failed, none configured): said on the
# screen, and not counted against the pages system's circuit breaker as if it were down.
AI_ANSWERS = frozenset({"UpstreamError", "ServiceUnavailable"})


async def call(request: Request, account_id: str, method: str, path: str, **options: Any) -> upstream.Answer:
    return await account_api.call(request, account_id, "pages", method, path, **options)


async def read(request: Request, account_id: str, path: str, **options: Any) -> upstream.Answer | None:
    """A read for one part of a page: None when the pages system is unavailable (the part says so)."""
    return await account_api.read(request, account_id, "pages", path, **options)


async def generate(request: Request, account_id: str, body: dict, *, timeout: float) -> upstream.Answer:
    """``POST /v1/ia/gerar-pagina`` as upstream.call makes a call, but with its 502 and 503 returned
    as answers (``AI_ANSWERS``) rather than raised as the pages system being unavailable."""
    client = services(request.app).client("pages")
    try:
        answer = await client.request("POST", "/v1/ia/gerar-pagina", json=body, answered=AI_ANSWERS,
                                      headers=upstream.client_headers(request, account_id),
                                      user_token=cookies.session_token(request), send_credential=False,
                                      timeout=httpx.Timeout(timeout, connect=2.0))
    except errors.AuthorizationError:
        return upstream.Answer(401, {"Error": {"Code": "AuthorizationError"}}, {})
    except errors.HttpError as exc:
        raise upstream.Unavailable(exc.headers.get("Retry-After") if exc.headers else None) from None
    return upstream.Answer(answer.status, answer.body, answer.headers)


def can_edit(account: dict) -> bool:
    """Owners and admins are the pages system's editors; members read (app/platform/member/grants.py)."""
    return gate.is_admin(account)


def public_url(request: Request) -> str:
    """The pages system's address as browsers reach it (its public URL, never the internal one)."""
    return request.app.ctx.settings.url_of("pages").rstrip("/")


def media_src(request: Request, media: dict) -> str:
    """Where a browser loads an image of the library (the pages system's public route)."""
    return public_url(request) + str(media.get("Url") or f"/v1/public/midias/{media['Id']}")


def headers(request: Request) -> dict[str, str]:
    """The console's CSP with the pages system's origin added to ``img-src`` (nothing else widened)."""
    parts = urlsplit(public_url(request))
    origin = f"{parts.scheme}://{parts.netloc}"
    return {"Content-Security-Policy": guard.CSP.replace("img-src 'self' data:", f"img-src 'self' data: {origin}")}


def field_errors(answer: upstream.Answer, names: dict[str, str], fallback: str) -> dict[str, str]:
    """The pages system's refusal as the screen's errors: ``Details`` keys (``Destination.CrmList``,
    ``Url``...) mapped onto the form's field names by ``names``; anything else in the summary."""
    errors: dict[str, str] = {}
    for key, problem in answer.details.items():
        target = names.get(key) or next((field for prefix, field in names.items() if key.startswith(prefix + ".")),
                                        None)
        if target and target not in errors:
            errors[target] = _sentence(str(problem))
    if not errors:
        errors["_"] = answer.message or fallback
    return errors


def _sentence(problem: str) -> str:
    problem = problem.strip()
    return (problem[:1].upper() + problem[1:]) if problem else problem
