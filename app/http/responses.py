"""JSON answers: every body carries ``RequestId``; moments are written by :func:`kit.timestamps.iso`.

Bodies are encoded with orjson (a C encoder: the accept path's answer costs a few microseconds
instead of tens), configured to write exactly what ``json.dumps(body, separators=(",", ":"),
ensure_ascii=False, default=str)`` wrote before: unicode as is, non-string keys as strings, and
anything it does not know (datetimes, decimals, ...) through ``str``. A body orjson refuses (an
integer past 64 bits) falls back to the standard library, so no body that encoded before fails now.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

import orjson
from sanic import HTTPResponse, Request

from app.http.request_id import request_id
from kit.timestamps import iso  # noqa: F401  (the one iso(): views and routes take it from here)

# Datetimes, dataclasses and str/int subclasses go through `default=str` exactly as json.dumps
# sent them there (json.dumps writes str and int subclasses as their plain values, as orjson does).
_OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)


def encode(body: Any) -> bytes:
    try:
        return orjson.dumps(body, default=str, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False, default=str).encode()


def reply(request: Request, body: Mapping[str, Any] | None = None, status: int = 200,
          headers: Mapping[str, str] | None = None) -> HTTPResponse:
    payload = dict(body or {})
    payload["RequestId"] = request_id(request)
    return HTTPResponse(encode(payload), status=status, headers=headers, content_type="application/json")


def no_content() -> HTTPResponse:
    return HTTPResponse(status=204)
