"""Local servers that speak the providers' protocols over real sockets, each in its own thread:

- :class:`HttpRecorder`: HTTP/1.1; records every request; answers from a script (Twilio, FCM,
  WhatsApp, Web Push);
- :class:`H2Recorder`: HTTP/2 only (cleartext, prior knowledge) with the ``h2`` library (APNs);
- :class:`DnsServer`: UDP DNS on loopback serving a zone (dnspython builds the answers);
- :func:`smtp_server`: aiosmtpd, optionally with STARTTLS and AUTH.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import socket
import ssl
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

import dns.flags
import dns.message
import dns.rcode
import dns.rrset


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    protocol: str = "HTTP/1.1"

    def json(self):
        return json.loads(self.body)


@dataclass
class Answer:
    status: int = 200
    body: object = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)

    def payload(self) -> bytes:
        return self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()


class _Script:
    def __init__(self, default: Callable[[Recorded], Answer]):
        self.requests: list[Recorded] = []
        self.queued: deque[Answer] = deque()
        self.default = default
        self.lock = threading.Lock()

    def answer(self, request: Recorded) -> Answer:
        with self.lock:
            self.requests.append(request)
            return self.queued.popleft() if self.queued else self.default(request)

    def then(self, *answers: Answer) -> None:
        """The next requests get these answers, in order; afterwards the default again."""
        with self.lock:
            self.queued.extend(answers)


class HttpRecorder(_Script):
    def __init__(self, default: Callable[[Recorded], Answer] = lambda request: Answer()):
        super().__init__(default)
        script = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                request = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                                   self.rfile.read(length))
                answer = script.answer(request)
                payload = answer.payload()
                self.send_response(answer.status)
                for name, value in {"Content-Type": "application/json", **answer.headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class H2Recorder(_Script):
    """An HTTP/2-only server: a client that does not speak HTTP/2 gets nothing but a protocol error."""

    def __init__(self, default: Callable[[Recorded], Answer] = lambda request: Answer()):
        super().__init__(default)
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.port = 0

        async def start():
            server = await self.loop.create_server(lambda: _H2Protocol(self), "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            self._server = server
            ready.set()

        def run():
            asyncio.set_event_loop(self.loop)
            self.loop.run_until_complete(start())
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        ready.wait(5)
        self.url = f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self._server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)


class _H2Protocol(asyncio.Protocol):
    def __init__(self, script: H2Recorder):
        import h2.config
        import h2.connection

        self.script = script
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        self.streams: dict[int, dict] = {}

    def connection_made(self, transport):
        self.transport = transport
        self.conn.initiate_connection()
        transport.write(self.conn.data_to_send())

    def data_received(self, data: bytes):
        import h2.events
        import h2.exceptions

        try:
            events = self.conn.receive_data(data)
        except h2.exceptions.ProtocolError:
            self.transport.write(self.conn.data_to_send())
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
            elif isinstance(event, h2.events.DataReceived):
                self.streams[event.stream_id]["body"] += event.data
                self.conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                stream = self.streams.pop(event.stream_id)
                headers = stream["headers"]
                request = Recorded(headers.get(":method", ""), headers.get(":path", ""),
                                   {k: v for k, v in headers.items() if not k.startswith(":")}, stream["body"],
                                   protocol="HTTP/2")
                answer = self.script.answer(request)
                payload = answer.payload() if answer.body not in ({}, b"") else b""
                self.conn.send_headers(event.stream_id, [(":status", str(answer.status)),
                                                         ("content-length", str(len(payload))),
                                                         *answer.headers.items()],
                                       end_stream=not payload)
                if payload:
                    self.conn.send_data(event.stream_id, payload, end_stream=True)
        self.transport.write(self.conn.data_to_send())


class DnsServer:
    """UDP DNS on 127.0.0.1: ``zone[(name, type)] = [values]``; ``failing`` answers SERVFAIL to all."""

    def __init__(self):
        self.zone: dict[tuple[str, str], list[str]] = {}
        self.failing = False
        self.queries: list[tuple[str, str]] = []
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.sock.getsockname()[1]}"
        self._stop = False
        threading.Thread(target=self._serve, daemon=True).start()

    def publish(self, name: str, rdtype: str, value: str) -> None:
        self.zone.setdefault((name.lower().rstrip("."), rdtype), []).append(value)

    def remove(self, name: str, rdtype: str) -> None:
        self.zone.pop((name.lower().rstrip("."), rdtype), None)

    def _serve(self) -> None:
        while not self._stop:
            try:
                data, peer = self.sock.recvfrom(4096)
            except OSError:
                return
            query = dns.message.from_wire(data)
            response = dns.message.make_response(query)
            question = query.question[0]
            name = question.name.to_text().lower().rstrip(".")
            rdtype = dns.rdatatype.to_text(question.rdtype)
            self.queries.append((name, rdtype))
            if self.failing:
                response.set_rcode(dns.rcode.SERVFAIL)
            elif (name, rdtype) in self.zone:
                texts = [self._rdata(rdtype, value) for value in self.zone[(name, rdtype)]]
                response.answer.append(dns.rrset.from_text_list(question.name, 60, "IN", rdtype, texts))
            elif not any(key[0] == name for key in self.zone):
                response.set_rcode(dns.rcode.NXDOMAIN)
            response.flags |= dns.flags.AA
            self.sock.sendto(response.to_wire(), peer)

    @staticmethod
    def _rdata(rdtype: str, value: str) -> str:
        if rdtype == "TXT":  # character-strings of at most 255 bytes
            return " ".join('"' + value[i:i + 255].replace('"', '\\"') + '"' for i in range(0, len(value), 255))
        return value.rstrip(".") + "."

    def close(self) -> None:
        self._stop = True
        self.sock.close()

    def txt(self, name: str) -> list[str]:
        return self.zone.get((name.lower().rstrip("."), "TXT"), [])


def self_signed(directory: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate for ``host`` and its key (the certificate is its own CA)."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


class SmtpInbox:
    """aiosmtpd handler: keeps every message; answers from a script of SMTP codes when set."""

    def __init__(self):
        self.messages: list[dict] = []
        self.replies: deque[str] = deque()
        self.sessions: set[int] = set()

    async def handle_DATA(self, server, session, envelope):
        self.sessions.add(id(session))
        if self.replies:
            return self.replies.popleft()
        self.messages.append({"from": envelope.mail_from, "to": list(envelope.rcpt_tos),
                              "data": envelope.original_content or envelope.content,
                              "tls": session.ssl is not None,
                              "login": getattr(session.auth_data, "login", None)})
        return "250 OK queued"


def smtp_server(inbox: SmtpInbox, *, tls_context: ssl.SSLContext | None = None,
                logins: dict[str, str] | None = None):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = logins is not None and logins.get(auth_data.login.decode()) == auth_data.password.decode()
        return AuthResult(success=ok, handled=False, auth_data=auth_data)

    options = {}
    if tls_context is not None:
        options.update(tls_context=tls_context, require_starttls=True)
    if logins is not None:
        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=tls_context is not None)
    from tests.harness import free_port

    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), **options)
    controller.start()
    return controller
