"""A staff removal, the same for every list of the operator's screens: DELETE on the operator API,
then back to the list, or the list again with the platform's refusal."""

from __future__ import annotations

from typing import Awaitable, Callable

from sanic import HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream


async def remove(request: Request, path: str, *, page: Callable[..., Awaitable[HTTPResponse]], failed: str,
                 done: str) -> HTTPResponse:
    """``path`` removed on the platform (a missing one is this console's 404); ``page(request, status,
    errors=...)`` renders the list with the refusal; ``done`` is where the list is shown afterwards."""
    await gate.require_staff(request)
    answer = await upstream.call(request, "DELETE", path)
    if answer.status == 404:
        raise gate.PageNotFound()
    if not answer.ok:
        return await page(request, answer.status, errors={"_": answer.message or failed})
    return redirect(done, status=303)
