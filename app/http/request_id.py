"""Request ids: ``req_<hex>``, made once per request, in every JSON body and the X-Request-Id header."""

from __future__ import annotations

import secrets

from sanic import Request

HEADER = "X-Request-Id"


def request_id(request: Request) -> str:
    """The request's id, made on first use (an error raised during routing still gets one)."""
    value = getattr(request.ctx, "request_id", None)
    if value is None:
        value = "req_" + secrets.token_hex(12)
        request.ctx.request_id = value
    return value
