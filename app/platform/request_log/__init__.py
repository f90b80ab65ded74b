"""Request logs of the /v1 surface: capture (response middleware), redaction, the batched writer.

``install(app)`` wires them into the platform app: a response middleware captures each
keyed /v1 request into the process's :class:`RequestLogBuffer`; a task writes the buffer in
batches, building the rows (redaction included) in a process of its own; a graceful stop
flushes it. The request never
waits for the log write.

Modules: ``capture`` (the request path), ``buffer`` (the writer), ``builder`` (its row-building
process), ``body`` (a body read and
redacted in bounded time), ``tokens`` (JSON one token at a time), ``redaction`` (the rules); and
reading them back: ``v1`` (GET /v1/logs), ``schemas`` (its query string), ``service`` (the
queries), ``views`` (the records as the contract writes them).
"""

from __future__ import annotations

import logging

from sanic import HTTPResponse, Request, Sanic

from app.platform.request_log.body import RedactedBody, redact_body
from app.platform.request_log.buffer import RequestLogBuffer
from app.platform.request_log.capture import Captured, capture
from app.platform.request_log.redaction import REDACTION_VERSION

__all__ = ["Captured", "REDACTION_VERSION", "RedactedBody", "RequestLogBuffer", "capture", "install",
           "redact_body"]

log = logging.getLogger("herald.request_log")

TASK = "request-log-flush"


def install(app: Sanic) -> None:
    buffer = RequestLogBuffer()

    @app.before_server_start
    async def start_request_logs(app: Sanic) -> None:
        app.ctx.request_logs = buffer
        app.add_task(buffer.run(), name=TASK)

    @app.before_server_stop
    async def flush_request_logs(app: Sanic) -> None:
        await buffer.flush()

    # Shutdown listeners run in reverse order of registration: this one runs before the ORM
    # (registered by build_app) closes, and catches requests that finished during the drain.
    @app.after_server_stop
    async def stop_request_logs(app: Sanic) -> None:
        await app.cancel_task(TASK, raise_exception=False)
        await buffer.flush()
        await buffer.close()

    @app.on_response(priority=0)
    async def capture_request(request: Request, response: HTTPResponse) -> None:
        try:
            record = capture(request, response)
        except Exception:  # noqa: BLE001 - logging must never break an answer
            log.exception("request-log capture failed")
            return
        if record is not None:
            buffer.add(record)
