"""The console's reads of the runtime's ``/v1/analytics`` as the person, for the account of the page
(``X-Service-Tenant``), through the one client (app/console/upstream.py, ``system="runtime"``).

The runtime answers 404 for an account the person cannot read analytics in: the console's 404
page. A runtime that does not answer makes that part of the page say it is unavailable."""

from __future__ import annotations

from typing import Any

from sanic import Request

from app.console import account_api, upstream


async def read(request: Request, account_id: str, path: str, **options: Any) -> upstream.Answer | None:
    """One GET for one part of a page: None when the runtime is unavailable or refuses (the part says so)."""
    return await account_api.read(request, account_id, "runtime", path, only_ok=True, **options)
