"""The headers of an OpenAPI operation (app/http/openapi.py), derived from the same declarations
the gates and handlers read: ``X-Service-Tenant`` from the gate's tenant and role declarations,
``Idempotency-Key`` where a handler reads it or the dashboard gate keeps answers, ``Last-Event-ID``
on event streams; and the response headers every answer, every keyed answer and every 429/503
carries."""

from __future__ import annotations

import inspect
import re
from typing import Any

from app.http.request_id import HEADER as REQUEST_ID_HEADER
from app.http.tenant_access import TENANT_HEADER

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
HEX_EXAMPLE = "8f14e45fceea167a5a36dedd"
IDEMPOTENCY_HEADER = "Idempotency-Key"
# Systems whose key-gated /v1 routes also admit a person's session acting in the account named by
# X-Service-Tenant (app/pages/gate/v1.py: act_in_account); the platform's /v1 takes API keys only.
KEY_OR_SESSION = frozenset({"pages"})
# How a handler reads Idempotency-Key itself (app/platform/message/v1.py: /v1 sends and batch, and
# the dashboard's composer, which reuse the accept path's own idempotency).
_READS_IDEMPOTENCY = re.compile(r"\bheader_idempotency_key\(|[\"']idempotency-key[\"']", re.IGNORECASE)

HEADERS = {
    "X-Request-Id": {"description": "The request's id, also the `RequestId` of a JSON body.",
                     "schema": {"type": "string"}, "example": "req_8f14e45fceea167a5a36dedd"},
    "X-RateLimit-Limit": {"description": "Calls the key may make in the current window.",
                          "schema": {"type": "integer"}, "example": 600},
    "X-RateLimit-Remaining": {"description": "Calls left in the current window.",
                              "schema": {"type": "integer"}, "example": 599},
    "X-RateLimit-Reset": {"description": "When the window starts again (epoch seconds).",
                          "schema": {"type": "integer"}, "example": 1795428960},
    "Retry-After": {"description": "Seconds to wait before trying again.",
                    "schema": {"type": "integer", "minimum": 0}, "example": 30},
}
RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def _header(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def tenant_header(system: str, path: str, ctx) -> bool | None:
    """Whether the route reads ``X-Service-Tenant``: True required, False optional, None not at all.

    - the platform's /api gate (app/platform/gate/api.py), ``ctx_tenant="header"``: optional,
      the person's first account when absent;
    - a session route with a role and no ``ctx_tenant`` (the CRM and runtime gates,
      app/http/tenant_access.py: ``session_access``): required (400 without it);
    - a key-gated route of a :data:`KEY_OR_SESSION` system: required with a session, unread with a key.
    """
    if getattr(ctx, "tenant", None) == "header":
        return False
    if getattr(ctx, "tenant", None) is None and "session" in (getattr(ctx, "auth", None) or "") \
            and getattr(ctx, "role", None) is not None:
        return True
    if system in KEY_OR_SESSION and path.startswith("/v1/") and getattr(ctx, "scope", None) is not None \
            and not getattr(ctx, "public", False):
        return False
    return None


def honours_idempotency(system: str, method: str, path: str, route) -> bool:
    """Whether a request's ``Idempotency-Key`` is honoured: the handler reads it (the accept path of
    sends), or the platform's /api gate keeps the answer of a write for replay (``keeps_answers``
    in app/platform/gate/api.py: not /api/admin, not the sign-in routes under /api/auth/ but
    the sign-up, not ``ctx_unverified`` nor ``ctx_idempotency=False``)."""
    try:
        source = inspect.getsource(route.handler)
    except (OSError, TypeError):
        source = ""
    if _READS_IDEMPOTENCY.search(source):
        return True
    ctx = route.ctx
    return (system == "platform" and method not in SAFE_METHODS and path.startswith("/api/")
            and not (path == "/api/admin" or path.startswith("/api/admin/"))
            and not getattr(ctx, "unverified", False) and getattr(ctx, "idempotency", True) is not False
            and (not path.startswith("/api/auth/") or path == "/api/auth/register"))


def _streams(ctx) -> bool:
    return any("text/event-stream" in getattr(answer, "media", ())
               for _, answer in (getattr(ctx, "responses", None) or ()))


def header_parameters(system: str, method: str, path: str, route) -> list[dict[str, Any]]:
    """The request headers the route's gate or handler reads, from the route's declarations."""
    ctx, parameters = route.ctx, []
    tenant = tenant_header(system, path, ctx)
    if tenant is not None:
        parameters.append({
            "name": TENANT_HEADER, "in": "header", "required": tenant,
            "description": "The account to act in (`acc_...`). " + (
                "Required: 400 without it; an account that is not the person's answers 404." if tenant else
                "Optional: without it, the person's first account (smallest id); an account outside their "
                "reach answers 404." if getattr(ctx, "tenant", None) == "header" else
                "Required with a session; an API key acts in its own account."),
            "schema": {"type": "string", "pattern": r"^[A-Za-z0-9_-]{1,64}$"}, "example": f"acc_{HEX_EXAMPLE}"})
    if honours_idempotency(system, method, path, route):
        parameters.append({
            "name": IDEMPOTENCY_HEADER, "in": "header", "required": False,
            "description": "Makes a retry safe: the same key again answers the first answer (24 hours); with "
                           "another request, 409 `IdempotencyConflict`.",
            "schema": {"type": "string", "pattern": r"^[A-Za-z0-9._:-]{1,128}$"}, "example": "order-1234:confirm"})
    if _streams(ctx):
        parameters.append({
            "name": "Last-Event-ID", "in": "header", "required": False,
            "description": "The id of the last event received: the stream resumes after it.",
            "schema": {"type": "string", "maxLength": 200}, "example": "1795428960123-0"})
    return parameters


def answer_headers(ctx, status: str) -> dict[str, Any]:
    headers = {REQUEST_ID_HEADER: _header(REQUEST_ID_HEADER)}
    if getattr(ctx, "scope", None) is not None or status == "429":
        headers.update({name: _header(name) for name in RATE_HEADERS})
    if status in ("429", "503"):
        headers["Retry-After"] = _header("Retry-After")
    return headers
