"""Request logs of the /v1 surface: capture (response middleware) and the hand-off to a stream.

``install(app)`` wires them into the platform app: a response middleware captures each keyed /v1
request into the process's :class:`RequestLogBuffer`; a task hands the buffer to the request log's
Redis Stream in batches (sealed); a graceful stop hands over what is left. The stream consumer
(``herald consume``: tasks/streams/request_log.py) builds the rows (key resolution, redaction, error
code, message ids: models/platform/request_log/) and writes them. The request never waits for any
of it.

Modules: ``capture`` (the request path), ``buffer`` (the bounded hand-off); and reading the log
back: ``v1`` (GET /v1/logs), ``api`` (the dashboard's), ``schemas`` (the query string),
``service`` (the queries), ``views`` (the records as the contract writes them).
"""

from __future__ import annotations

import logging

from sanic import HTTPResponse, Request, Sanic

from app.platform.request_log.buffer import RequestLogBuffer
from app.platform.request_log.capture import Captured, capture

__all__ = ["Captured", "RequestLogBuffer", "capture", "install"]

log = logging.getLogger("herald.request_log")

TASK = "request-log-flush"


def install(app: Sanic) -> None:
    buffer = RequestLogBuffer()

    @app.before_server_start
    async def start_request_logs(app: Sanic) -> None:
        app.ctx.request_logs = buffer
        buffer.open(app.ctx.redis)
        app.add_task(buffer.run(), name=TASK)

    @app.before_server_stop
    async def flush_request_logs(app: Sanic) -> None:
        await buffer.flush()

    # Shutdown listeners run in reverse order of registration: this one runs before the Redis
    # client (opened by build_app) closes, and catches requests that finished during the drain.
    @app.after_server_stop
    async def stop_request_logs(app: Sanic) -> None:
        await app.cancel_task(TASK, raise_exception=False)
        await buffer.flush()
        await buffer.drain()
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
