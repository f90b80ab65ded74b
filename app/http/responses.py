"""JSON answers: every body carries ``RequestId``."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Mapping

from sanic import HTTPResponse, Request

from app.http.request_id import request_id


def _dumps(body: Any) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str)


def reply(request: Request, body: Mapping[str, Any] | None = None, status: int = 200,
          headers: Mapping[str, str] | None = None) -> HTTPResponse:
    payload = dict(body or {})
    payload["RequestId"] = request_id(request)
    return HTTPResponse(_dumps(payload), status=status, headers=headers, content_type="application/json")


def iso(moment: datetime | None, timespec: str = "auto") -> str | None:
    """A moment as the API writes it: ISO 8601 in UTC with a ``Z``; None stays None."""
    if moment is None:
        return None
    return moment.astimezone(timezone.utc).isoformat(timespec=timespec).replace("+00:00", "Z")


def no_content() -> HTTPResponse:
    return HTTPResponse(status=204)
