"""The mail system's calls to the platform, which owns sending domains and the one accept path
(service credential, app/http/services.py):

    /internal/v1/tenants/{account}/domains[...]          sending domains (app/platform/domain/internal.py)
    /internal/v1/tenants/{account}/messages/send         the internal send route (the /v1 accept path)

A 4xx of the platform is answered as it stands (status, code, message and Retry-After), in the mail
API's envelope; the platform unreachable, failing or its breaker open is 503 ``ServiceUnavailable``
with Retry-After, never a hang.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from sanic import Sanic

from app.http import errors
from app.http.services import ServiceClient, ServiceResponse, services

DOMAINS = "/internal/v1/tenants/{account}/domains"
SEND = "/internal/v1/tenants/{account}/messages/send"


class Relayed(errors.HttpError):
    """A platform refusal answered as the platform gave it."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str]) -> None:
        super().__init__(message, headers=headers)
        self.status = status
        self.code = code


def relayed(answer: ServiceResponse) -> errors.HttpError:
    body = answer.body if isinstance(answer.body, dict) else {}
    envelope = body.get("Error") if isinstance(body.get("Error"), dict) else {}
    headers = {"Retry-After": answer.headers["retry-after"]} if "retry-after" in answer.headers else {}
    if answer.status == 404:  # what the mail system says of anything not the account's
        return errors.NotFound(str(envelope.get("Message") or "Not found."))
    return Relayed(answer.status, answer.error_code or "InvalidRequest",
                   str(envelope.get("Message") or "The platform refused the request."), headers)


def client(app: Sanic) -> ServiceClient:
    """The app's client of the platform: what the services here are given."""
    return services(app).client("platform")


async def call(platform: ServiceClient, method: str, path: str, *, json: Any = None) -> ServiceResponse:
    """One call; a 4xx is raised as :func:`relayed` (a 404 too: another account's object is missing)."""
    answer = await platform.request(method, path, json=json, outage=errors.ServiceUnavailable)
    if not answer.ok:
        raise relayed(answer)
    return answer


def domains_path(account: str, name: str | None = None, action: str | None = None) -> str:
    path = DOMAINS.format(account=quote(account, safe=""))
    if name is not None:
        path += "/" + quote(name, safe="")
    if action is not None:
        path += "/" + action
    return path


def send_path(account: str) -> str:
    return SEND.format(account=quote(account, safe=""))
