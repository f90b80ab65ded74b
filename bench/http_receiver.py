"""The local HTTP provider servers of bench/providers_e2e.py and bench/chaos.py: Twilio's Messages
API, FCM's HTTP v1 (with its OAuth token endpoint) and WhatsApp's Cloud API, answered as the provider tests' server
answers them (tests/fixtures/provider_servers.py, ``HttpRecorder``), in a process of its own that
notes which channel each call was for and when it arrived (CLOCK_MONOTONIC, the same clock in every
process) and to whom (the recipient each protocol names: Twilio's ``To``, FCM's ``message.token``,
WhatsApp's ``to``), as bench/receiver.py does for SMTP by Message-ID."""

from __future__ import annotations

import json
import secrets
import sys
import threading
import time
from urllib.parse import parse_qs

from bench.receiver import ArrivalProcess

TWILIO_SID, TWILIO_TOKEN = "AC" + "b" * 32, "bench-auth-token-" + "x" * 15
CHANNEL_OF_PATH = (("/Messages.json", "sms"), (":send", "push"), ("/messages", "whatsapp"))


def provider_env(url: str) -> dict[str, str]:
    """The platform's SMS, push and WhatsApp providers (as the environment sets them), pointed at
    the local servers at ``url``."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    service_account = {"project_id": "bench", "client_email": "herald@bench.iam.gserviceaccount.com",
                       "private_key": pem, "private_key_id": "bench-1", "token_uri": f"{url}/token"}
    return {
        "SMS_PROVIDER": "twilio",
        "SMS_PROVIDER_CONFIG": json.dumps({"account_sid": TWILIO_SID, "auth_token": TWILIO_TOKEN, "base_url": url,
                                           "from": "+15550001111"}),
        "PUSH_PROVIDER": "fcm",
        "PUSH_PROVIDER_CONFIG": json.dumps({"base_url": url, "service_account": json.dumps(service_account)}),
        "WHATSAPP_PROVIDER": "whatsapp_cloud",
        "WHATSAPP_PROVIDER_CONFIG": json.dumps({"phone_number_id": "1055", "access_token": "EAAG-bench",
                                                "base_url": url}),
    }


def channel_of(path: str) -> str | None:
    """The channel of a provider call by its path; None for FCM's token endpoint."""
    for ending, channel in CHANNEL_OF_PATH:
        if path.endswith(ending):
            return channel
    return None


def recipient_of(channel: str, body: bytes) -> str:
    """The recipient a provider call names, as Herald stored it (a phone number with its ``+``)."""
    try:
        if channel == "sms":
            return parse_qs(body.decode())["To"][0]
        if channel == "push":
            return json.loads(body)["message"]["token"]
        return "+" + json.loads(body)["to"]
    except (KeyError, IndexError, ValueError, TypeError):
        return ""


def serve_quietly(answer, ready) -> None:
    """Serves ``answer`` (a request -> Answer function) on a free port for the life of the process,
    putting its URL on ``ready``: no list of requests kept (a burst would only fill memory), and a
    client killed mid-call (the chaos run's worker kills) is not reported as an error."""
    from tests.fixtures.provider_servers import HttpRecorder

    class Quiet(HttpRecorder):
        def answer(self, request):
            return self.default(request)

    server = Quiet(answer)
    report = server.server.handle_error

    def handle_error(request, address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionResetError):
            report(request, address)

    server.server.handle_error = handle_error
    ready.put(server.url)
    threading.Event().wait()  # until the bench terminates this process


def _serve(ready, queue) -> None:
    from tests.fixtures.provider_servers import Answer

    def answer(request) -> Answer:
        channel = channel_of(request.path)
        if channel is not None:
            queue.put((channel, recipient_of(channel, request.body), time.monotonic()))
        if request.path == "/token":
            return Answer(200, {"access_token": "ya29.bench", "expires_in": 3599, "token_type": "Bearer"})
        if channel == "sms":
            return Answer(201, {"sid": "SM" + secrets.token_hex(16), "status": "queued"})
        if channel == "push":
            return Answer(200, {"name": f"projects/bench/messages/0:{secrets.token_hex(8)}"})
        if channel == "whatsapp":
            return Answer(200, {"messages": [{"id": f"wamid.{secrets.token_hex(12)}"}]})
        return Answer(404, {"error": "unknown path"})

    serve_quietly(answer, ready)


class HttpReceiver(ArrivalProcess):
    """The provider servers in a process of its own; ``url`` is their base URL, ``count(channel)``
    how many calls of that channel have arrived, ``last(channel)`` when the latest one did, and
    ``snapshot()`` when each (channel, recipient) was called, every time."""

    name = "herald-bench-http-providers"

    def __init__(self) -> None:
        super().__init__(_serve)
        self._counts: dict[str, int] = {}
        self._last: dict[str, float] = {}
        self._arrivals: dict[tuple[str, str], list[float]] = {}
        self.url = ""

    def start(self) -> None:
        ready = self._context.Queue()
        self._start_process(ready)
        self.url = ready.get(timeout=60)
        ready.close()

    def _note(self, channel: str, recipient: str, at: float) -> None:
        self._counts[channel] = self._counts.get(channel, 0) + 1
        self._last[channel] = at
        self._arrivals.setdefault((channel, recipient), []).append(at)

    def count(self, channel: str) -> int:
        with self._lock:
            return self._counts.get(channel, 0)

    def last(self, channel: str) -> float:
        with self._lock:
            return self._last.get(channel, 0.0)

    def snapshot(self) -> dict[tuple[str, str], list[float]]:
        """A copy of the arrival times by (channel, recipient), safe to read while calls go on."""
        with self._lock:
            return {key: list(times) for key, times in self._arrivals.items()}
