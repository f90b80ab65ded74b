"""An account's API request log: the explorer (the contract's filters kept in the page's address,
newest first, cursor paging toward older records and back to the newest) and one request with its
redacted bodies. Owners and admins only, as on the platform.
``GET /api/tenants/{id}/logs`` (the /v1/logs filters), ``GET /api/tenants/{id}/logs/{logId}``."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from sanic import Blueprint, HTTPResponse, Request

from app.console import gate, upstream
from app.console.templating import render

bp = Blueprint("console_request_log")
# The contract's filters of GET /v1/logs, passed as the person set them (the platform checks them).
FILTERS = ("status_class", "status", "method", "path", "api_key_id", "error_code", "idempotency_key", "message_id",
           "mode", "since", "until")
PAGING = ("after", "limit")
LOG_ID = re.compile(r"^log_[A-Za-z0-9]{1,64}$")  # never anything else in a platform path
CLASSES = (("", "Any status"), ("2xx", "2xx: success"), ("4xx,5xx", "4xx and 5xx: errors"), ("4xx", "4xx"),
           ("5xx", "5xx"))
METHODS = ("", "GET", "POST", "PUT", "PATCH", "DELETE")


def pretty(body: str | None) -> str | None:
    """A stored body (redacted JSON as text) indented for reading; a cut body as it was stored."""
    if body is None:
        return None
    try:
        return json.dumps(json.loads(body), indent=2, ensure_ascii=False)
    except ValueError:
        return body


def _chosen(request: Request) -> dict[str, str]:
    return {name: value.strip()[:200] for name in FILTERS if (value := request.args.get(name) or "").strip()}


@bp.get("/a/<account_id:id>/logs", ctx_query=FILTERS + PAGING)
async def logs(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    chosen = _chosen(request)
    params = {**chosen, "limit": "50"}
    if request.args.get("after"):
        params["after"] = request.args.get("after")[:512]
    answer = await upstream.call(request, "GET", f"/api/tenants/{account_id}/logs", params=params)
    if answer.status == 404:
        raise gate.PageNotFound()
    errors = {}
    if answer.status in (400, 422):
        named = next(iter(answer.details), "")
        errors = {named if named in FILTERS else "_": answer.message or "Check the filters"}
    older = None
    if answer.ok and answer.get("has_more") and answer.get("next"):
        older = f"/a/{account_id}/logs?" + urlencode({**chosen, "after": answer.get("next")})
    return render(request, "request_log/logs.html", 400 if errors else 200, fragment="request_log/_rows.html",
                  title="Request log", rows=answer.get("data", []) if answer.ok else None,
                  hidden=answer.status == 403, values=chosen, errors=errors, classes=CLASSES, methods=METHODS,
                  older=older, paged=bool(request.args.get("after")),
                  query=("?" + urlencode({"mode": chosen["mode"]})) if chosen.get("mode") else "")


@bp.get("/a/<account_id:id>/logs/<log_id:str>", ctx_query=("mode",))
async def log(request: Request, account_id: str, log_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    if not LOG_ID.match(log_id):
        raise gate.PageNotFound()
    mode = request.args.get("mode") if request.args.get("mode") in ("live", "test") else None
    answer = await upstream.call(request, "GET", f"/api/tenants/{account_id}/logs/{log_id}",
                                 params={"mode": mode} if mode else None)
    if answer.status in (400, 404):
        raise gate.PageNotFound()
    if answer.status == 403:
        return render(request, "request_log/logs.html", 403, title="Request log", rows=None, hidden=True,
                      classes=CLASSES, methods=METHODS, older=None, paged=False, query="")
    if not answer.ok:
        raise upstream.Unavailable()
    return render(request, "request_log/log.html", title=f"{answer.get('method')} {answer.get('path')}",
                  entry=answer.body, mode=mode, request_body=pretty(answer.get("request_body")),
                  response_body=pretty(answer.get("response_body")))
