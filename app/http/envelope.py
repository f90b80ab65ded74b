"""Renders :class:`app.http.errors.HttpError` into the contract's error envelope.

Two casings exist in the contract: the platform envelope ``{Error: {Type, Code, Message,
Details?}, RequestId}`` and the lowercase one ``{error: {type, code, message}}`` that the
request-log endpoints (and the identity server) use. An app takes the lowercase one for every
error with ``app.config.ERROR_ENVELOPE = "lower"``. A route takes it with ``ctx_envelope="lower"``
for its own answers only, 400 and 404, as the contract writes for the log routes: what the
surface's gate answers there (401, 403, 429) stays in the app's envelope, like on any other route.

The mail API (app/mail/) writes a third, flat one, exactly ``{error, message}`` (``error`` the
stable code): ``app.config.ERROR_ENVELOPE = "flat"``.
"""

from __future__ import annotations

import logging

import sanic.exceptions as sanic_errors
from sanic import HTTPResponse, Request

from app.http import errors
from app.http.request_id import request_id
from app.http.responses import encode
from kit.systems import owner_of

log = logging.getLogger("herald.http")


# The statuses a route's own envelope applies to (``ctx_envelope``); the rest are the surface's.
ROUTE_ENVELOPE_STATUSES = frozenset({400, 404})


def envelope_style(request: Request, error: errors.HttpError) -> str:
    route = request.route
    style = getattr(route.ctx, "envelope", None) if route is not None else None
    if style is not None and error.status in ROUTE_ENVELOPE_STATUSES:
        return style
    return request.app.config.get("ERROR_ENVELOPE", "pascal")


def render(request: Request, error: errors.HttpError) -> HTTPResponse:
    body = error_body(error, envelope_style(request, error), request_id(request))
    return HTTPResponse(encode(body), status=error.status, headers=error.headers, content_type="application/json")


def error_body(error: errors.HttpError, style: str, rid: str) -> dict:
    """The envelope of ``error`` in ``style`` ("lower", "pascal" or "flat"), for the request ``rid``."""
    if style == "flat":  # the mail API's: exactly these two keys (the request id is the header's)
        return {"error": error.code, "message": error.message}
    if style == "lower":
        body = {"error": {"type": error.type, "code": error.code, "message": error.message}}
        if error.details:
            body["error"]["details"] = error.details
    else:
        body = {"Error": {"Type": error.type, "Code": error.code, "Message": error.message}}
        if error.details:
            body["Error"]["Details"] = error.details
    body["RequestId"] = rid
    return body


def not_found_for(request: Request) -> errors.NotFound:
    owner = owner_of(request.path)
    this_system = request.app.config.get("HERALD_SYSTEM")
    if owner is not None and owner.name != this_system:
        return errors.NotFound(
            f"No route {request.path} on this service; that path belongs to the {owner.name} system "
            f"({owner.title}, default port {owner.default_port}).",
            details={"System": owner.name},
        )
    return errors.NotFound(f"No route matches {request.method} {request.path}.")


def translate(request: Request, exception: BaseException) -> errors.HttpError:
    """Our error for any exception: Sanic's own routing and protocol errors included."""
    if isinstance(exception, errors.HttpError):
        return exception
    if isinstance(exception, sanic_errors.NotFound):
        return not_found_for(request)
    if isinstance(exception, sanic_errors.MethodNotAllowed):
        return errors.MethodNotAllowed(request.method, list(exception.allowed_methods or []))
    if isinstance(exception, sanic_errors.PayloadTooLarge):
        # The route's own limit when it has one (app/http/factory.py), else the server's.
        limit = getattr(getattr(request, "stream", None), "request_max_size", None)
        if not limit or limit == float("inf"):
            limit = request.app.config.REQUEST_MAX_SIZE
        return errors.PayloadTooLarge(int(limit))
    status = getattr(exception, "status_code", 500) or 500
    if isinstance(exception, sanic_errors.SanicException) and 400 <= status < 500:
        # Protocol-level refusals (timeouts, bad headers, range errors) keep their status.
        error = errors.InvalidRequest(str(exception) or None)
        error.status = status
        return error
    return errors.InternalError()


async def handle_exception(request: Request, exception: BaseException) -> HTTPResponse:
    error = translate(request, exception)
    note(error, exception, request.method, request.path, request_id(request))
    return render(request, error)


def note(error: errors.HttpError, exception: BaseException, method: str, path: str, rid: str) -> None:
    """An answered error logged (and reported to Sentry) unless it is one of the quiet ones."""
    if not isinstance(exception, errors.HttpError) and isinstance(error, errors.InternalError):
        log.exception("unhandled error on %s %s (%s)", method, path, rid, exc_info=exception)
        _report(exception)
    elif not error.quiet:
        log.error("%s on %s %s (%s): %s", error.code, method, path, rid, exception)
        _report(exception)


def _report(exception: BaseException) -> None:
    try:
        import sentry_sdk
    except ImportError:  # pragma: no cover
        return
    if sentry_sdk.get_client().is_active():
        sentry_sdk.capture_exception(exception)
