"""Every error a client of Herald can see, as one class hierarchy.

    HttpError                          Type "Sender" for 4xx, "Receiver" for 5xx
    ├── BadRequest (400)               ValidationError, InvalidJson, InvalidRequest, InvalidCursor
    ├── Unauthorized (401)             AuthorizationError
    ├── Forbidden (403)                InsufficientScope, TenantSuspended, PermissionDenied,
    │                                  ImpersonationReadOnly
    ├── NotFound (404)
    ├── MethodNotAllowed (405)
    ├── Conflict (409)                 Conflict, IdempotencyConflict
    ├── PayloadTooLarge (413)
    ├── Unprocessable (422)            QueryParameterNotAllowed (code ValidationError), SenderNotVerified
    ├── TooManyRequests (429)          Throttling, QuotaExceeded
    └── ServerError (5xx)              InternalError, ServiceUnavailable, VerificationUnavailable, NotReady,
                                       UpstreamError (502: another system unreachable, timed out or 5xx)

A handler raises one of these; :mod:`app.http.envelope` renders it. Nobody builds an error
body by hand. Each class fixes the HTTP status and the contract's ``Code``; the message is
what the client reads, ``details`` is machine-readable context (field to reason).
"""

from __future__ import annotations

import time
from typing import Any, Mapping


class HttpError(Exception):
    status: int = 500
    code: str = "InternalError"
    message: str = "The server could not complete the request."
    # Quiet errors are the client's doing: logged at debug level, never sent to Sentry.
    quiet: bool = True

    def __init__(
        self,
        message: str | None = None,
        *,
        details: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ):
        self.message = message or self.message
        self.details = dict(details) if details else None
        self.headers = dict(headers) if headers else {}
        super().__init__(self.message)

    @property
    def type(self) -> str:
        return "Sender" if self.status < 500 else "Receiver"


# 400
class BadRequest(HttpError):
    status = 400
    code = "InvalidRequest"
    message = "The request is malformed."


class ValidationError(BadRequest):
    code = "ValidationError"
    message = "The request body is not valid."


class InvalidJson(BadRequest):
    code = "InvalidJson"
    message = "The request body is not valid JSON."


class InvalidRequest(BadRequest):
    code = "InvalidRequest"


class InvalidCursor(BadRequest):
    code = "ValidationError"
    message = "The cursor is not valid."


# 401
class Unauthorized(HttpError):
    status = 401
    code = "AuthorizationError"
    message = "A valid credential is required."


class AuthorizationError(Unauthorized):
    pass


# 403
class Forbidden(HttpError):
    status = 403
    code = "PermissionDenied"
    message = "The credential does not allow this operation."


class PermissionDenied(Forbidden):
    pass


class InsufficientScope(Forbidden):
    code = "InsufficientScope"

    def __init__(self, scope: str | None, message: str | None = None):
        if scope:
            super().__init__(message or f"This API key lacks the scope {scope!r} required by this route.",
                             details={"RequiredScope": scope})
        else:
            super().__init__("This route declares no scope and cannot be called with an API key.")


class ImpersonationReadOnly(Forbidden):
    """A write inside a read-only support session (platform staff reading an account), in any system."""

    code = "ImpersonationReadOnly"
    message = "This session is a read-only support session: it cannot write."


class TenantSuspended(Forbidden):
    code = "TenantSuspended"
    message = "The account is not active."


# 404, 405
class NotFound(HttpError):
    status = 404
    code = "NotFound"
    message = "The resource was not found."


class MethodNotAllowed(HttpError):
    status = 405
    code = "MethodNotAllowed"

    def __init__(self, method: str, allowed: list[str]):
        allowed = sorted(set(allowed))
        super().__init__(
            f"Method {method} is not allowed here; allowed: {', '.join(allowed)}.",
            headers={"Allow": ", ".join(allowed)},
        )


# 409
class Conflict(HttpError):
    status = 409
    code = "Conflict"
    message = "The request conflicts with the current state of the resource."


class IdempotencyConflict(Conflict):
    code = "IdempotencyConflict"
    message = "This Idempotency-Key was already used with a different request body."


# 413
class PayloadTooLarge(HttpError):
    status = 413
    code = "PayloadTooLarge"

    def __init__(self, limit: int):
        super().__init__(f"The request body is larger than {limit} bytes.", details={"MaxBytes": limit})


# 422
class Unprocessable(HttpError):
    status = 422
    code = "ValidationError"
    message = "The request cannot be processed."


class QueryParameterNotAllowed(Unprocessable):
    def __init__(self, names: list[str], allowed: tuple[str, ...]):
        names = sorted(names)
        listed = ", ".join(allowed) if allowed else "none"
        super().__init__(
            f"Unknown query parameter {names[0]!r}; this route accepts: {listed}.",
            details={name: "unknown query parameter" for name in names},
        )


class SenderNotVerified(Unprocessable):
    code = "RemetenteNaoVerificado"
    message = "The sender address does not belong to a verified domain of this account."


# 429
class TooManyRequests(HttpError):
    """Every 429 carries ``Retry-After`` and the ``X-RateLimit-*`` headers (contract, Errors rule 1).

    ``headers`` are the limiter's own (``Decision.headers()``) when there is one; otherwise the
    error describes itself: nothing remains until ``Retry-After`` has passed, and the limit is
    ``limit`` when the raiser names it."""

    status = 429
    code = "Throttling"
    message = "Too many requests; slow down."

    def __init__(self, retry_after: int, message: str | None = None, headers: Mapping[str, str] | None = None,
                 *, limit: int | None = None):
        wait = max(1, int(retry_after))
        merged = {"Retry-After": str(wait), "X-RateLimit-Remaining": "0",
                  "X-RateLimit-Reset": str(int(time.time()) + wait)}
        if limit is not None:
            merged["X-RateLimit-Limit"] = str(limit)
        merged.update(headers or {})
        super().__init__(message, headers=merged)


class Throttling(TooManyRequests):
    pass


class QuotaExceeded(TooManyRequests):
    code = "QuotaExceeded"
    message = "The account's monthly quota is used up; it renews at the start of next month (UTC)."


# 5xx
class ServerError(HttpError):
    status = 500
    code = "InternalError"
    quiet = False


class InternalError(ServerError):
    pass


class ServiceUnavailable(ServerError):
    status = 503
    code = "ServiceUnavailable"
    message = "The service is temporarily unavailable; try again shortly."
    quiet = True

    def __init__(self, message: str | None = None, *, retry_after: int | None = None, details=None):
        headers = {"Retry-After": str(retry_after)} if retry_after else None
        super().__init__(message, details=details, headers=headers)


class VerificationUnavailable(ServiceUnavailable):
    code = "VerificacaoIndisponivel"
    message = "The sender domain's verification cannot be confirmed right now; nothing was sent."


class NotReady(ServiceUnavailable):
    code = "NotReady"
    message = "The service is not ready."


# 502
class UpstreamError(ServerError):
    """Another system did not answer usefully: unreachable, timed out, a 5xx, or its circuit breaker
    is open (app/http/services.py). The client reads a generic message; the real reason is logged
    where the failure was seen, once, so this error is quiet here."""

    status = 502
    code = "UpstreamError"
    message = "A service this request depends on did not answer; try again shortly."
    quiet = True
