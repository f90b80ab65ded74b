"""The console's one way to call another system's ``/v1`` for the account of the page: as the person
(their session), with ``X-Service-Tenant``, through the one client (app/console/upstream.py).

Each system answers 404 both for a missing item and for an account the person cannot use it in: both
are the console's 404 page. A system that does not answer raises ``upstream.Unavailable`` from
:func:`call`; :func:`read`, for one part of a page, answers None instead and the part says it is
unavailable. The screens' own modules (contact/crm.py, page/pages.py, brand/site.py, ...) name their
system and call these."""

from __future__ import annotations

from typing import Any

from sanic import Request

from app.console import gate, upstream


async def call(request: Request, account_id: str, system: str, method: str, path: str, *, not_found: bool = True,
               **options: Any) -> upstream.Answer:
    answer = await upstream.call(request, method, path, tenant=account_id, system=system, **options)
    if not_found and answer.status == 404:
        raise gate.PageNotFound()
    return answer


async def read(request: Request, account_id: str, system: str, path: str, *, only_ok: bool = False,
               **options: Any) -> upstream.Answer | None:
    """A GET for one part of a page: None when the system is unavailable (and, ``only_ok``, when it
    refuses the read), so that part says so and the rest of the page is shown."""
    try:
        answer = await call(request, account_id, system, "GET", path, **options)
    except upstream.Unavailable:
        return None
    return answer if answer.ok or not only_ok else None
