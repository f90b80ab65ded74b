"""Sentry gets the error and its stack, never data: no local variables, no request body, no
credentials or cookies. Checked end to end: a platform server with SENTRY_DSN pointing at a
local HTTP server that records what the SDK sends."""

from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from tests.fixtures.harness import free_port

KEY = "sk_live_" + "5e" * 24


class SentryInbox:
    """Collects the JSON items of every envelope posted to it."""

    def __init__(self) -> None:
        self.items: list[dict] = []
        self.raw: list[bytes] = []
        inbox = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                if self.headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                inbox.raw.append(body)
                for line in body.splitlines():
                    try:
                        inbox.items.append(json.loads(line))
                    except ValueError:
                        pass
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server.server_address[1]}/1"

    def events(self) -> list[dict]:
        return [item for item in self.items if "exception" in item]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def inbox():
    box = SentryInbox()
    yield box
    box.close()


def frames(event: dict) -> list[dict]:
    return [frame for value in event["exception"]["values"] for frame in (value.get("stacktrace") or {}).get(
        "frames", [])]


async def test_an_unhandled_error_reaches_sentry_without_locals_body_or_credentials(start_server, inbox):
    server = start_server("platform", PLATFORM_PORT=str(free_port()), SENTRY_DSN=inbox.dsn)
    response = httpx.request("GET", server.url + "/_test/crash", timeout=10, content=b'{"Secret": "body-secret-42"}',
                             headers={"Authorization": f"Bearer {KEY}", "Cookie": "session=cookie-secret-42",
                                      "Content-Type": "application/json"})
    assert response.status_code == 500
    deadline = time.monotonic() + 10
    while not inbox.events() and time.monotonic() < deadline:
        time.sleep(0.05)
    events = inbox.events()
    assert events, f"nothing reached the Sentry inbox: {inbox.raw!r}"
    event = events[0]
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert frames(event) and all("vars" not in frame for frame in frames(event))
    sent = b"".join(inbox.raw)
    for secret in (KEY.encode(), b"cookie-secret-42", b"body-secret-42"):
        assert secret not in sent
