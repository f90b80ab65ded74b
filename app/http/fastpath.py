"""A fast path under Sanic's HTTP/1.1 protocol, for a system's hottest public route.

A system registers a taker for the first bytes of a request line (``register(app, b"POST /collect?k=",
take)``; the runtime also takes ``b"GET /"`` for its cached published pages, the platform
``b"POST /v1/emails/send HTTP/1.1\\r\\n"``). When a request arrives whole on an idle keep-alive
connection and starts with those bytes (in one read, or its head in one read and its small body in
the next few: see ``FastPathProtocol._stash``), the taker gets its raw bytes before Sanic parses
them, and either

- declines (``None``): the bytes go to Sanic as if there were no fast path; or
- takes it: it returns the whole answer (``bytes``), or a future of it that may still resolve to
  ``None``, and then Sanic gets the original bytes after all.

A taker declines everything but the plain, valid, common case: every error, every unusual header,
every question HTTP leaves open stays with Sanic and the route, so the fast path has no behaviour a
client could tell apart. (A taker that must count or write before it knows the answer, the
platform's send, renders what follows through the house's one error renderer instead of declining:
docs/http.md.) Answers stay in order on a connection:
while a taken request waits for its answer, reading pauses and what arrived meanwhile waits too.

Why it exists: the runtime's ``POST /collect`` and its cached published pages must each answer at
least half the rate of a bare Sanic handler (issue 20); Sanic's own request and response work for
them (the header parser, the ``Request`` object, middleware, the response object) cost more than the
routes' own work, and a profile left nothing in the routes worth the difference (docs/runtime.md
"Speed").

:func:`read_head` reads a request the way Sanic would and declines, for every taker alike, what a
taker must never have to think about.

Every Herald app is a :class:`HouseSanic`, whose ``prepare`` gives Sanic this protocol (``sanic``'s
command line, ``herald serve`` and the tests all go through ``prepare``); with no taker registered it
is Sanic's protocol plus one attribute check a read.
"""

from __future__ import annotations

import asyncio
import re
import time
from functools import partial
from typing import Callable, Optional, Union

from sanic import Sanic
from sanic.compat import Header
from sanic.headers import Options, parse_forwarded, parse_xforwarded
from sanic.http import Stage
from sanic.log import error_logger
from sanic.models.server_types import ConnInfo
from sanic.server.protocols.http_protocol import HttpProtocol

# What a taker returns: None (declined), the answer's bytes, or a future of the bytes (None: declined).
Answer = Union[bytes, "asyncio.Future[bytes | None]", None]
Taker = Callable[[Sanic, bytes, Optional[ConnInfo]], Answer]  # (app, the request's bytes, the connection)

HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
# A request whose body is still on its way is held for its taker up to this size (FastPathProtocol._stash).
STASH_BYTES = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*([0-9]{1,9})[ \t]*(?=\r\n|$)", re.I)
_NOT_STASHED = re.compile(rb"\r\n(?:expect|transfer-encoding)[ \t]*:", re.I)
PLAIN_VALUE = re.compile(r"[\t\x20-\x7e]*")  # ASCII without control characters: read alike by any decoder
DECLINED_HEADERS = ("transfer-encoding", "expect", "upgrade")


def register(app: Sanic, prefix: bytes, taker: Taker) -> None:
    app.ctx.fast_paths = (*getattr(app.ctx, "fast_paths", ()), (prefix, taker))


class FastPathProtocol(HttpProtocol):
    """Sanic's HTTP/1.1 protocol, with the registered takers offered each whole request first."""

    __slots__ = ("_held", "_partial", "_awaited")

    def connection_made(self, transport) -> None:
        self._held: list[bytes] | None = None  # set while a taken request waits for its answer
        self._partial: list[bytes] | None = None  # a request whose body is still on its way (see _stash)
        self._awaited = 0  # bytes of that body not read yet
        super().connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._held is not None:  # answers keep the requests' order
            self._held.append(data)
            return
        if self._partial is not None:
            self._partial.append(data)
            self._awaited -= len(data)
            self._time = time.monotonic()  # Sanic's keep-alive clock (HttpProtocol._time)
            if self._awaited > 0:
                return
            data, self._partial = b"".join(self._partial), None
            self._offer(data)
            return
        takers = getattr(self.app.ctx, "fast_paths", ())
        # Sanic reads requests in the connection's task, whose Http object says where it is. A new
        # connection's first read often comes before that task has first run: Sanic has read
        # nothing yet, so that request is as free to take as one between requests.
        http = getattr(self, "_http", None)
        idle = http.stage is Stage.IDLE if http is not None else self._task is not None
        if takers and idle and not self.recv_buffer:
            if any(data.startswith(prefix) for prefix, _ in takers) and self._stash(data):
                return
            self._offer(data)
            return
        super().data_received(data)

    def _stash(self, data: bytes) -> bool:
        """Holds a request whose head came whole but whose small body has not all arrived: many
        clients (httpx among them) write the head and the body separately, and each may be read
        alone. Once the body is complete the request is offered as if it had come in one read;
        Sanic has seen none of its bytes either way. Not held: no whole head, no single
        ``Content-Length``, a body over STASH_BYTES, ``Expect`` (the client waits for Sanic's 100
        Continue) or ``Transfer-Encoding``."""
        head, separator, body = data.partition(b"\r\n\r\n")
        if not separator or _NOT_STASHED.search(head):
            return False
        lengths = _CONTENT_LENGTH.findall(head)
        if len(lengths) != 1 or not len(body) < int(lengths[0]) <= STASH_BYTES:
            return False
        self._partial, self._awaited = [data], int(lengths[0]) - len(body)
        return True

    def _offer(self, data: bytes) -> None:
        """A whole request to the taker of its prefix; to Sanic when there is none or it declines."""
        for prefix, taker in getattr(self.app.ctx, "fast_paths", ()):
            if data.startswith(prefix):
                try:
                    answer = taker(self.app, data, self.conn_info)
                except Exception:  # noqa: BLE001 - a bug in a taker: the route answers instead
                    error_logger.exception("fast path %r failed; the request goes to Sanic", prefix)
                    answer = None
                if answer is not None:
                    self._time = time.monotonic()  # Sanic's keep-alive clock (HttpProtocol._time)
                    self._answer(data, answer)
                    return
                break
        super().data_received(data)

    def close_if_idle(self) -> bool:
        # A taken request not answered yet, or one whose body is on its way: not idle (a graceful
        # shutdown waits for it, as Sanic waits for a request it is reading).
        if self._held is not None or self._partial is not None:
            return False
        return super().close_if_idle()

    def _answer(self, data: bytes, answer: Answer) -> None:
        if isinstance(answer, bytes):
            self.transport.write(answer)
            return
        self._held = []
        self.transport.pause_reading()
        answer.add_done_callback(partial(self._answered, data))

    def _answered(self, data: bytes, future: asyncio.Future) -> None:
        held, self._held = self._held or [], None
        if self.transport is None or self.transport.is_closing():
            return
        self.transport.resume_reading()
        try:
            answer = None if future.cancelled() else future.result()
        except Exception:  # noqa: BLE001 - declined: the route meets the same failure and answers it
            answer = None
        if answer is None:
            super().data_received(data)
        else:
            self.transport.write(answer)
        for chunk in held:
            self.data_received(chunk)


def read_head(app: Sanic, data: bytes, method: bytes) -> tuple[str, Header, bytes] | None:
    """(target, headers, body) of a whole ``<method> <target> HTTP/1.1`` request a taker may take, or
    None. What it gives, Sanic would read the same way (sanic/http/http1.py ``http1_request_header``):
    names lower-cased, values with leading blanks dropped. Declined for every taker: keep-alive off,
    a head over Sanic's limit, another HTTP version, an odd or non-ASCII header line, no Host or two,
    ``Transfer-Encoding``, ``Expect``, ``Upgrade``, ``Connection`` other than keep-alive, and a body
    that is not exactly its one ``Content-Length`` (bytes after it would be the next request's)."""
    head, separator, body = data.partition(b"\r\n\r\n")
    if not separator or len(head) > app.config.REQUEST_MAX_HEADER_SIZE or not app.config.KEEP_ALIVE:
        return None
    lines = head.decode("latin-1").split("\r\n")
    verb, _, rest = lines[0].partition(" ")
    target, _, version = rest.partition(" ")
    if verb.encode() != method or version != "HTTP/1.1":
        return None
    headers = Header()
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not HEADER_NAME.fullmatch(name) or not PLAIN_VALUE.fullmatch(value):
            return None
        headers.add(name.lower(), value.lstrip())
    if (len(headers.getall("host", [])) != 1 or any(name in headers for name in DECLINED_HEADERS)
            or [value.lower() for value in headers.getall("connection", ["keep-alive"])] != ["keep-alive"]):
        return None
    lengths = headers.getall("content-length", [])
    if (lengths != [str(len(body))] if lengths else body):  # the body is exactly its one Content-Length
        return None
    return target, headers, body


def forwarded(app: Sanic, headers: Header) -> Options:
    """What the proxy headers Sanic's configuration trusts say (Sanic's ``request.forwarded``)."""
    return parse_forwarded(headers, app.config) or parse_xforwarded(headers, app.config) or {}


class HouseSanic(Sanic):
    """Sanic, serving with :class:`FastPathProtocol` unless told another protocol (or websockets)."""

    def prepare(self, *args, **kwargs) -> None:  # type: ignore[override]
        if kwargs.get("protocol") is None and not self.websocket_enabled:
            kwargs["protocol"] = FastPathProtocol
        super().prepare(*args, **kwargs)
