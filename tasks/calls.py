"""A worker's call to another Herald system, and the one reading of its answer.

A worker imports no HTTP system (import-linter), so it does not use app/http/services.py; this is
the same call, written once for the actors that need it (CRM journeys and erasures, the runtime's
leads): the service credential, the callee's internal URL, bounded timeouts, no proxy taken from
the environment, no redirect followed. The callee unreachable, a 5xx or one of the caller's
``retryable`` codes raise :class:`Unavailable` (the job is retried, Dramatiq's back-off); any
other answer is returned for the caller to read.
"""

from __future__ import annotations

import httpx

from kit.settings import get_settings


class Unavailable(Exception):
    """The other system could not take the call now: the job is retried. ``str()`` says why, in
    words fit to keep on the row (no answer body)."""

    def __init__(self, reason: str, text: str = ""):
        super().__init__(reason)
        self.text = text  # the start of the answer's body, for logs


async def call(system: str, path: str, body: dict | None, *, timeout: httpx.Timeout, method: str = "POST",
               retryable: tuple[int, ...] = (), agent: str | None = None,
               unavailable: type[Unavailable] = Unavailable) -> httpx.Response:
    """``method`` ``path`` of ``system`` with ``body`` (JSON; None: no body, as for a GET); the
    answer, or raises ``unavailable``."""
    settings = get_settings()
    headers = {"Authorization": f"Bearer {settings.require_service_token()}"}
    if agent:
        headers["User-Agent"] = agent
    try:
        async with httpx.AsyncClient(base_url=settings.internal_url_of(system), timeout=timeout, trust_env=False,
                                     follow_redirects=False) as client:
            response = await client.request(method, path, json=body, headers=headers)
    except httpx.TransportError as exc:
        raise unavailable(f"{system} unreachable: {type(exc).__name__}", str(exc)[:300]) from None
    if response.status_code >= 500 or response.status_code in retryable:
        raise unavailable(f"{system} answered {response.status_code}", response.text[:300])
    return response
