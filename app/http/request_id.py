"""Request ids: ``req_<hex>``, made once per request, in every JSON body and the X-Request-Id header."""

from __future__ import annotations

import itertools
import os

from sanic import Request

from kit import logs

HEADER = "X-Request-Id"

# Unique, not secret: a random prefix per process and a counter (no system call per request). A
# forked worker draws its own prefix (os.register_at_fork), so two workers never share one.
_prefix = os.urandom(4).hex()
_counter = itertools.count(int.from_bytes(os.urandom(8), "big"))


def _new_prefix() -> None:
    global _prefix
    _prefix = os.urandom(4).hex()


os.register_at_fork(after_in_child=_new_prefix)


def new_request_id() -> str:
    return f"req_{_prefix}{next(_counter) & 0xFFFFFFFFFFFFFFFF:016x}"


def request_id(request: Request) -> str:
    """The request's id, made on first use (an error raised during routing still gets one). Made,
    it starts the request's logging context (kit/logs.py): every line written while the request is
    handled carries it. Started afresh each time, since requests of one connection share its task."""
    value = getattr(request.ctx, "request_id", None)
    if value is None:
        value = request.ctx.request_id = new_request_id()
        logs.start(request_id=value)
    return value
