"""Routes mounted only when HERALD_ENV=test, so the shared plumbing can be exercised through
real HTTP before any product route uses it (a crash, a strict body, a signed cursor).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http.bodies import Body, parse_body
from app.http.cursors import open_cursor, sign_cursor
from app.http.query import int_param
from app.http.responses import reply


class EchoBody(Body):
    name: str
    count: int = 0
    tags: dict[str, str] | None = None


def diagnostics_blueprint() -> Blueprint:
    bp = Blueprint("diagnostics")

    @bp.get("/v1/_test/unscoped")
    async def unscoped(request: Request) -> HTTPResponse:
        # A /v1 route that declares no scope: the platform's gate must refuse every key here.
        return reply(request, {"Reached": True})

    @bp.get("/_test/crash")
    async def crash(request: Request) -> HTTPResponse:
        raise RuntimeError("database password is hunter2")  # must never reach the client

    @bp.post("/_test/echo")
    async def echo(request: Request) -> HTTPResponse:
        body = parse_body(request, EchoBody, max_bytes=4096)
        return reply(request, {"Name": body.name, "Count": body.count, "Tags": body.tags})

    @bp.get("/_test/page", ctx_query=("cursor", "limit", "account"))
    async def page(request: Request) -> HTTPResponse:
        secret = request.app.ctx.settings.require_secret_keys()
        account = request.args.get("account", "acc_a")
        limit = int_param(request, "limit", default=10, low=1, high=100)
        start = 0
        if cursor := request.args.get("cursor"):
            start = open_cursor(cursor, secret_keys=secret, audience=account)["offset"]
        return reply(request, {"Offset": start, "Limit": limit,
                               "NextCursor": sign_cursor({"offset": start + limit}, secret_keys=secret,
                                                         audience=account)})

    return bp
