"""API-key introspection for the other systems (pages, runtime): ``POST /internal/v1/api-keys/introspect``.

The caller (app/http/api_keys.py) sends the key it was given and the service credential; the answer
is the key's account, account status, the scopes it may use (the /v1 gate's own rules applied:
a legacy or scope-less key uses none, a publishable key only the publishable ones), whether it is
publishable, its mode, whether it is revoked, and its rate ceiling (its plan's, else the service
default), which the caller enforces in the same Redis window as the /v1 gate (bucket ``key:<id>``).
An unknown key is 404. The row is read the way the /v1 gate reads it (:class:`KeyDirectory`'s load
by SHA-256), but fresh: the caller keeps the answer for at most 2 s, so the whole path stays within
the contract's 2 s bound.
"""

from __future__ import annotations


from pydantic import Field
from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import Body, parse_body
from app.http.openapi import STRING, answers, described, reply_of, shape
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform.api_key.principal import KeyDirectory
from models.platform.api_key import KEY_PATTERN, hash_key
from models.platform.plans import rate_limit_for
from models.platform.scopes import SCOPES, grants

bp = Blueprint("internal_api_keys", url_prefix="/internal/v1")

KEY_ANSWER = reply_of(Key=described(shape(
    Id=described(STRING, "The key's id (key_...)."),
    TenantId=described(STRING, "The id of the key's account (acc_...)."),
    TenantStatus=described(STRING, "The account's status: active or suspended."),
    Scopes=described({"type": "array", "items": STRING}, "The scopes the key may use, the /v1 gate's rules applied."),
    Publishable=described({"type": "boolean"}, "Whether it is a publishable (pk_live_) key."),
    Mode=described({"enum": ["live", "test"]}, "test for an sk_test_ key, live otherwise."),
    Revoked=described({"type": "boolean"}, "Whether the key is revoked."),
    RateLimit=described(shape(Limit=described({"type": "integer"}, "Requests allowed per window."),
                              WindowSeconds=described({"type": "integer"}, "The window's length in seconds.")),
                        "The key's rate ceiling: its plan's, else the service default.")), "The key."))


class Introspect(Body):
    key: str = Field(min_length=1, max_length=100)
    """The API key the caller was given."""


@bp.post("/api-keys/introspect", ctx_auth="service", ctx_body=Introspect, ctx_responses=answers({200: KEY_ANSWER}))
async def introspect(request: Request) -> HTTPResponse:
    """The account and usable scopes of an API key (404 when no such key)."""
    require_service_credential(request)
    key = parse_body(request, Introspect).key
    principal = await KeyDirectory._load(hash_key(key)) if KEY_PATTERN.match(key) else None  # noqa: SLF001
    if principal is None:
        raise errors.NotFound("No such API key.")
    limit, window = rate_limit_for(principal.plan, (request.app.ctx.settings.rate_limit,
                                                    request.app.ctx.settings.rate_limit_window))
    usable = [scope for scope in SCOPES if grants(list(principal.scopes), scope, publishable=principal.publishable)]
    return reply(request, {"Key": {"Id": principal.key_id, "TenantId": principal.tenant_id,
                                   "TenantStatus": principal.tenant_status, "Scopes": usable,
                                   "Publishable": principal.publishable, "Mode": principal.mode,
                                   "Revoked": principal.revoked,
                                   "RateLimit": {"Limit": limit, "WindowSeconds": window}}})
