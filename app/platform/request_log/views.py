"""Request logs as the contract writes them: snake_case, moments to the microsecond."""

from __future__ import annotations

from typing import Any

from app.http.paging import Page
from kit.timestamps import iso
from models.platform.request_log import RequestLog

US = "microseconds"


def summary(row: RequestLog) -> dict[str, Any]:
    return {
        "id": row.id,
        "object": "log",
        "created_at": iso(row.created_at, US),
        "method": row.method,
        "path": row.path,
        "route": row.route,
        "status": row.status,
        "duration_ms": row.duration_ms,
        "mode": row.mode,
        "api_key": {"id": row.api_key_id, "name": row.api_key_name},
        "idempotency_key": row.idempotency_key,
        "error_code": row.error_code,
        "message_ids": list(row.message_ids or []),
        "request_id": row.request_id,
    }


def detail(row: RequestLog) -> dict[str, Any]:
    return {
        **summary(row),
        "query": row.query,
        "request_body": row.request_body,
        "response_body": row.response_body,
        "request_body_truncated": row.request_body_truncated,
        "response_body_truncated": row.response_body_truncated,
        "trace_id": row.trace_id,
        "redaction_version": row.redaction_version,
    }


def listing(page: Page[RequestLog]) -> dict[str, Any]:
    return {"object": "list", "has_more": page.has_more, "next": page.next_cursor,
            "data": [summary(row) for row in page.items]}
