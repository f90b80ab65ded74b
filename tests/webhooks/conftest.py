"""Webhook fixtures: a local receiver over real HTTP, and endpoints registered through the API.

The test environment runs with HERALD_ENV=test, in which WEBHOOKS_ALLOW_LOOPBACK defaults to on,
so the platform server and the pipeline's worker may deliver to these loopback receivers. Tests
of the refusal pass ``allow_loopback=False`` to the code they call.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.platform.conftest import make_account, sender  # noqa: F401  (fixtures shared with tests/platform)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def event(self) -> dict:
        return json.loads(self.body)


@dataclass
class Answer:
    status: int = 200
    body: bytes = b'{"ok":true}'
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


class Receiver:
    """An HTTP server on 127.0.0.1 that records every request and answers as told."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.answer = Answer()
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._lock:
                    receiver.requests.append(Received(self.path, {k: v for k, v in self.headers.items()}, body,
                                                      time.time()))
                    answer = receiver.answer
                if answer.delay:
                    time.sleep(answer.delay)
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(answer.body)))
                    self.end_headers()
                    self.wfile.write(answer.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client stopped reading (the response cap): expected

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def respond(self, status: int = 200, body: bytes = b'{"ok":true}', delay: float = 0.0, **headers: str) -> None:
        self.answer = Answer(status, body, headers, delay)

    def of_type(self, event_type: str) -> list[Received]:
        return [request for request in list(self.requests) if request.headers.get("X-Service-Event") == event_type]

    async def wait_for(self, event_type: str, count: int = 1, seconds: float = 20.0) -> list[Received]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = self.of_type(event_type)
            if len(found) >= count:
                return found
            await asyncio.sleep(0.05)
        raise AssertionError(f"{count} x {event_type} not received in {seconds}s; got "
                             f"{[r.headers.get('X-Service-Event') for r in self.requests]}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


@pytest.fixture
def another_receiver():
    server = Receiver()
    yield server
    server.close()


async def register(client, account, url: str, **fields) -> dict:
    response = await client.post("/v1/webhooks", json={"Url": url, **fields}, headers=account.headers)
    assert response.status_code == 201, response.text
    return response.json()["Webhook"]


async def until(predicate, seconds: float = 20.0, what: str = "condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = await predicate()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"{what} not reached in {seconds}s")
