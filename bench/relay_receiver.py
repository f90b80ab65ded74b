"""The local Resend of bench/chaos.py: Resend's ``POST /emails`` answered as Resend answers it, in a
process of its own, and each message's ``email.delivered`` event posted back to the account's
callback (``/callbacks/resend/<account>``), signed as Resend signs it (Standard Webhooks: ``svix-id``,
``svix-timestamp``, ``svix-signature``), while the chaos goes on.

As Resend does:

- the API key must be the account's (``Authorization: Bearer``), else 401; ``GET /domains`` (how
  Herald checks the key when the account saves it) answers the account's domains, none;
- an ``Idempotency-Key`` already answered gets the same ``id`` again and is not a second message
  (Herald sends the message id as that key, so a retry after a worker was killed mid-call is not
  sent twice); the bench notes the first call of each key as the message's arrival and counts the
  replays apart;
- the event goes out :data:`EVENT_DELAY_SECONDS` after the answer (a relay reports a delivery once
  the recipient's server took it, not in the same instant), and is tried again, with the same event
  id and a new timestamp and signature, while the platform answers anything but 200 or does not
  answer (it is being restarted), every :data:`RETRY_SECONDS` for at most :data:`GIVE_UP_SECONDS`
  (Resend, through Svix, retries any non-2xx too, over days).

What each call and each event's outcome were (``delivered``, ``unmatched``, ``unchanged``, ...) goes to
the bench's process with its CLOCK_MONOTONIC time, as bench/receiver.py does for SMTP.
"""

from __future__ import annotations

import base64
import json
import queue as queues
import secrets
import threading
import time
import uuid

from bench.http_receiver import serve_quietly
from bench.receiver import ArrivalProcess

EVENT_DELAY_SECONDS = 1.0
RETRY_SECONDS = 0.5
GIVE_UP_SECONDS = 60.0  # longer than the platform holds an event cut off mid-way (replays.PENDING_SECONDS)
POSTERS = 4


def webhook_secret() -> str:
    """A Resend signing secret: ``whsec_`` and the base64 of the key."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def _sign(secret: str, event_id: str, timestamp: str, body: bytes) -> str:
    """The signature by the Standard Webhooks library (as Resend's own, through Svix), not Herald's code."""
    from datetime import datetime, timezone

    from standardwebhooks.webhooks import Webhook

    return Webhook(secret).sign(event_id, datetime.fromtimestamp(int(timestamp), timezone.utc), body.decode())


def _post_events(pending: queues.Queue, callback: str, secret: str, out) -> None:
    """Post each due event until the platform takes it (or GIVE_UP_SECONDS pass)."""
    import httpx

    with httpx.Client(timeout=10) as client:
        while True:
            due, herald_id, event_id, body = pending.get()
            time.sleep(max(0.0, due - time.monotonic()))
            outcome, give_up = "not_posted", time.monotonic() + GIVE_UP_SECONDS
            while time.monotonic() < give_up:
                stamp = str(int(time.time()))
                headers = {"Content-Type": "application/json", "svix-id": event_id, "svix-timestamp": stamp,
                           "svix-signature": _sign(secret, event_id, stamp, body)}
                try:
                    response = client.post(callback, content=body, headers=headers)
                except httpx.TransportError:
                    time.sleep(RETRY_SECONDS)
                    continue
                if response.status_code == 200:
                    outcome = ",".join(response.json().get("Outcomes") or ["?"])
                    break
                outcome = f"refused_{response.status_code}"
                time.sleep(RETRY_SECONDS)
            out.put(("event", herald_id, outcome, time.monotonic()))


def _serve(api_key: str, callback: str, secret: str, ready, out) -> None:
    from tests.fixtures.provider_servers import Answer

    pending: queues.Queue = queues.Queue()
    answered: dict[str, str] = {}  # Idempotency-Key -> the id it was given
    lock = threading.Lock()
    for _ in range(POSTERS):
        threading.Thread(target=_post_events, args=(pending, callback, secret, out), daemon=True).start()

    def answer(request) -> Answer:
        if request.headers.get("authorization") != f"Bearer {api_key}":
            return Answer(401, {"statusCode": 401, "name": "validation_error", "message": "API key is invalid"})
        if request.method == "GET" and request.path == "/domains":  # the key checked when the account saves it
            return Answer(200, {"object": "list", "data": []})
        if request.method != "POST" or request.path != "/emails":
            return Answer(404, {"statusCode": 404, "name": "not_found", "message": "Not found"})
        body = json.loads(request.body)
        herald_id = (body.get("headers") or {}).get("X-Herald-Message-Id", "")
        key = request.headers.get("idempotency-key") or str(uuid.uuid4())
        with lock:
            replay = key in answered
            email_id = answered.setdefault(key, str(uuid.uuid4()))
        out.put(("call", herald_id, replay, time.monotonic()))
        if not replay:
            event = {"type": "email.delivered", "created_at": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                     "data": {"email_id": email_id, "from": body.get("from"), "to": body.get("to"),
                              "subject": body.get("subject")}}
            pending.put((time.monotonic() + EVENT_DELAY_SECONDS, herald_id, f"msg_{uuid.uuid4().hex}",
                         json.dumps(event).encode()))
        return Answer(200, {"id": email_id})

    serve_quietly(answer, ready)


class RelayReceiver(ArrivalProcess):
    """The local Resend in a process of its own; ``url`` is its base URL (the account's ``base_url``).
    ``calls()``: when each Herald message first reached it (one time per Idempotency-Key);
    ``replays``: calls that repeated a key; ``events()``: each message's event outcome and when."""

    name = "herald-bench-resend"

    def __init__(self, api_key: str, callback: str, secret: str) -> None:
        super().__init__(_serve, api_key, callback, secret)
        self._calls: dict[str, list[float]] = {}
        self._events: dict[str, tuple[str, float]] = {}
        self.replays = 0
        self.url = ""

    def start(self) -> None:
        ready = self._context.Queue()
        self._start_process(ready)
        self.url = ready.get(timeout=60)
        ready.close()

    def _note(self, kind: str, herald_id: str, what, at: float) -> None:
        if kind == "event":
            self._events[herald_id] = (what, at)
        elif what:  # the same Idempotency-Key again: the same message, not a second one
            self.replays += 1
        else:
            self._calls.setdefault(herald_id, []).append(at)

    def calls(self) -> dict[str, list[float]]:
        with self._lock:
            return {herald_id: list(times) for herald_id, times in self._calls.items()}

    def events(self) -> dict[str, tuple[str, float]]:
        with self._lock:
            return dict(self._events)
