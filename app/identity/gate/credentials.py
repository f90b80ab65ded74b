"""Who is calling (the identity surfaces' gate piece): the session bearer token, or the service
credential (SERVICE_TOKEN, compared in constant time).

The surfaces call these; services receive the resulting session (or None for the service
credential) and never the request.
"""

from __future__ import annotations

import hmac
import logging

from sanic import Request

from app.identity import errors
from app.identity.session.service import session_of_token
from app.identity.session_token import service as session_token
from models.identity import Session

log = logging.getLogger("herald.identity")


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def is_service(request: Request) -> bool:
    expected = request.app.ctx.settings.service_token
    token = bearer(request)
    return bool(expected and token and hmac.compare_digest(token.encode(), expected.encode()))


def require_service(request: Request) -> None:
    token = bearer(request)
    if token is None:
        raise errors.MissingToken("This route needs the service credential: Authorization: Bearer <SERVICE_TOKEN>.")
    if not request.app.ctx.settings.service_token:
        log.error("SERVICE_TOKEN is not configured; service routes refuse every call")
    if not is_service(request):
        raise errors.InvalidToken("The service credential is not valid.")


async def require_session(request: Request) -> Session:
    """The live session of the request's bearer token (401 otherwise): the opaque session token
    or the dashboard's session JWT (app/identity/session_token/), both read from the database."""
    token = bearer(request)
    if session_token.looks_like_jwt(token):
        return await session_token.session_of_jwt(token, request.app.ctx.settings.url_of("identity"))
    return await session_of_token(token)
