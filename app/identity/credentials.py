"""Who is calling: the session bearer token, or the service credential (SERVICE_TOKEN).

Session tokens are opaque (``hst_`` + 43 random characters); only their SHA-256 is stored and
every check reads the database, so a revoked session fails at once.
"""

from __future__ import annotations

import hmac
import logging

from sanic import Request

from app.identity import errors

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
