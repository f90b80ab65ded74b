"""Small local HTTP servers for the pages tests: one serving fixed answers by path (images to
import), one speaking the OpenAI-compatible chat completions API."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LocalServer:
    """``routes[path] = (status, content type, body, extra headers)``; every request recorded."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, str, bytes, dict]] = {}
        self.requests: list[tuple[str, str, bytes]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                owner.requests.append((self.command, self.path, body))
                status, content_type, payload, headers = owner.answer(self.command, self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, str, bytes, dict]:
        return self.routes.get(path, (404, "text/plain", b"not found", {}))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class ChatServer(LocalServer):
    """``POST /v1/chat/completions`` answering ``reply`` as the assistant's message content."""

    def __init__(self, reply: str) -> None:
        self.reply = reply
        super().__init__()

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, str, bytes, dict]:
        if method != "POST" or path != "/v1/chat/completions":
            return 404, "application/json", b"{}", {}
        completion = {"id": "chatcmpl-1", "object": "chat.completion", "model": json.loads(body)["model"],
                      "choices": [{"index": 0, "finish_reason": "stop",
                                   "message": {"role": "assistant", "content": self.reply}}]}
        return 200, "application/json", json.dumps(completion).encode(), {}
