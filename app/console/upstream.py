"""The console's calls to the platform's ``/api``, through the one client between systems.

Each call is made on the person's behalf: their session token as the Bearer credential, the
account it acts on named (``X-Service-Tenant`` or the path: the console never relies on the
header-less default), and who they are forwarded as the platform does toward identity: their
address in ``X-Service-Client-Ip`` beside the service credential in ``X-Service-Token`` (the
platform believes the address only next to it) and their user agent as ``User-Agent``.

A platform that does not answer raises :class:`Unavailable`; the page says that part is
unavailable and the rest works.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import httpx
from sanic import Request

from app.console import cookies
from app.http import errors
from app.http.services import ServiceResponse, services


class Unavailable(Exception):
    """The platform did not answer (unreachable, timed out, 5xx, breaker open)."""

    def __init__(self, retry_after: str | None = None):
        super().__init__("the platform is unavailable")
        self.retry_after = retry_after


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    headers: Mapping[str, str]

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def error(self) -> dict:
        """The platform envelope's ``Error`` ({} when the answer has none)."""
        if isinstance(self.body, dict) and isinstance(self.body.get("Error"), dict):
            return self.body["Error"]
        return {}

    @property
    def code(self) -> str:
        return str(self.error.get("Code") or "")

    @property
    def message(self) -> str:
        return str(self.error.get("Message") or "")

    @property
    def details(self) -> dict:
        details = self.error.get("Details")
        return details if isinstance(details, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.body.get(key, default) if isinstance(self.body, dict) else default


def client_headers(request: Request, tenant: str | None = None) -> dict[str, str]:
    settings = request.app.ctx.settings
    sent = {"User-Agent": (request.headers.get("user-agent") or "herald-console")[:512]}
    address = request.remote_addr or request.ip or ""
    if address and settings.service_token:
        sent.update({"X-Service-Client-Ip": address, "X-Service-Token": settings.service_token})
    if tenant:
        sent["X-Service-Tenant"] = tenant
    return sent


async def call(request: Request, method: str, path: str, *, json: Any = None, params: dict | None = None,
               tenant: str | None = None, token: str | None = None, anonymous: bool = False,
               system: str = "platform", files: dict | None = None, raw: bool = False,
               timeout: float | None = None) -> Answer:
    """One call to the platform as the person; ``anonymous`` for the public routes (sign-in...).
    ``system="crm"``: the CRM's ``/v1`` (contacts, lists, segments, imports), the same way; ``files``
    a multipart body, ``raw`` a success's body as bytes (a CSV export), ``timeout`` (seconds) for a
    call the callee needs longer to answer than the client's default."""
    client = services(request.app).client(system)
    session = None if anonymous else (token or cookies.session_token(request))
    try:
        answer: ServiceResponse = await client.request(
            method, path, json=json, params=params, headers=client_headers(request, tenant),
            user_token=session, send_credential=False, files=files, raw=raw,
            timeout=httpx.Timeout(timeout, connect=2.0) if timeout else None)
    except errors.AuthorizationError:  # a cookie that is not a bearer token at all
        return Answer(401, {"Error": {"Code": "AuthorizationError"}}, {})
    except errors.HttpError as exc:
        raise Unavailable(exc.headers.get("Retry-After") if exc.headers else None) from None
    return Answer(answer.status, answer.body, answer.headers)
