"""Local stand-ins for a callee system, over real loopback sockets in the test's own event loop.

- :class:`Upstream`: a tiny HTTP/1.1 server answering every request from a script (status, JSON or
  raw body, an optional gate to hold an answer back); it records what it was asked.
- :func:`surface`: a small real Sanic app (the way a system's surface uses app/http/identity.py:
  services installed, a gate calling ``require_session``) served in-process on a free port.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import AsyncIterator, Callable

from sanic import Request, Sanic
from sanic.response import json as json_response

from app.http.services import ServiceClient
from tests.harness import free_port


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Reply:
    status: int = 200
    body: object = field(default_factory=dict)
    hold: asyncio.Event | None = None  # answer only once this is set (a slow callee, without sleeping)

    def payload(self) -> bytes:
        return self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()


class Upstream:
    def __init__(self, answer: Callable[[Seen], Reply] = lambda seen: Reply()):
        self.answer = answer
        self.requests: list[Seen] = []
        self.url = ""
        self._server: asyncio.Server | None = None
        self._handlers: set[asyncio.Task] = set()

    async def __aenter__(self) -> Upstream:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._handlers.add(task)
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
            method, path, _ = head[0].split(" ", 2)
            fields = (line.partition(":") for line in head[1:] if line)
            headers = {name.strip().lower(): value.strip() for name, _, value in fields}
            body = await reader.readexactly(int(headers.get("content-length") or 0))
            seen = Seen(method, path, headers, body)
            self.requests.append(seen)
            reply = self.answer(seen)
            if reply.hold is not None:
                await reply.hold.wait()
            payload = reply.payload()
            writer.write(f"HTTP/1.1 {reply.status} X\r\ncontent-type: application/json\r\n"
                         f"content-length: {len(payload)}\r\nconnection: close\r\n\r\n".encode() + payload)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
            self._handlers.discard(task)


@asynccontextmanager
async def calling(answer: Callable[[Seen], Reply] = lambda seen: Reply(), *, system: str = "crm",
                  token: str | None = "t" * 40, **options) -> AsyncIterator[tuple[Upstream, ServiceClient]]:
    """A local callee and a service client pointed at it."""
    async with Upstream(answer) as callee, ServiceClient(system, callee.url, token, **options) as client:
        yield callee, client


@asynccontextmanager
async def surface(settings) -> AsyncIterator[tuple[str, Sanic]]:
    """A real Sanic app whose ``/me`` is behind the session gate, served at the yielded URL."""
    from app.http import services
    from app.http.envelope import handle_exception
    from app.http.identity import require_session

    app = Sanic(f"surface_{secrets.token_hex(4)}", ctx=SimpleNamespace(settings=settings))
    app.config.FALLBACK_ERROR_FORMAT = "json"
    app.config.TOUCHUP = False  # Sanic rewrites its own code at each start: once per process is all it allows
    services.install(app)

    @app.on_request
    async def gate(request: Request) -> None:
        await require_session(request)

    @app.get("/me")
    async def me(request: Request):
        session = request.ctx.session
        return json_response({"UserId": session.user_id, "SessionId": session.session_id})

    app.error_handler.add(Exception, handle_exception)
    port = free_port()
    server = await app.create_server(host="127.0.0.1", port=port, return_asyncio_server=True,
                                     access_log=False)
    await server.startup()
    await server.before_start()
    await server.after_start()
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        await server.before_stop()
        await server.close()
        await server.after_stop()
