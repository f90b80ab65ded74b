"""JSON answers: every body carries ``RequestId``; moments are written by :func:`herald.timestamps.iso`."""

from __future__ import annotations

import json
from typing import Any, Mapping

from sanic import HTTPResponse, Request

from app.http.request_id import request_id
from herald.timestamps import iso  # noqa: F401  (the one iso(): views and routes take it from here)


def _dumps(body: Any) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str)


def reply(request: Request, body: Mapping[str, Any] | None = None, status: int = 200,
          headers: Mapping[str, str] | None = None) -> HTTPResponse:
    payload = dict(body or {})
    payload["RequestId"] = request_id(request)
    return HTTPResponse(_dumps(payload), status=status, headers=headers, content_type="application/json")


def no_content() -> HTTPResponse:
    return HTTPResponse(status=204)
