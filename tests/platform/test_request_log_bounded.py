"""A request log costs bounded time and memory, whatever the body: hostile bodies are redacted in
milliseconds, the API keeps answering while they are logged, and the buffer is capped in bytes.

The timings run in a child process with a deadline, so that a regression fails in seconds
instead of holding the suite for the hour a quadratic pattern would take. They measure CPU time
(best of several runs): what the redaction costs, not how busy the machine is.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from datetime import datetime, timezone

import httpx
import pytest

from app.platform.api_key.service import create_key, revoke_key
from app.platform.request_log.buffer import MAX_PENDING_BYTES, RequestLogBuffer
from app.platform.request_log.capture import Captured
from models.platform.request_log.redaction import MAX_BODY_BYTES
from models.platform.api_key import KeyKind
from models.platform.request_log import RequestLog
from tests.fixtures.harness import ROOT, free_port

MiB = 1024 * 1024
BUDGET_MS = 50.0
JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"


def _fill(unit: str, size: int = 2 * MiB - 64) -> str:
    """``unit`` repeated to about ``size`` characters (by default, room left for a JSON wrapper)."""
    return unit * (size // len(unit))


# Bodies of 2 MiB (the platform's body limit) built to be expensive: the shapes the redaction
# patterns look for, repeated; many tiny values; deep nesting; secrets' containers to skip.
HOSTILE = {
    "jwt-like run": lambda: json.dumps({"Tags": {"ref": _fill("eyJ")}}),
    "jwt-like words": lambda: json.dumps({"Tags": {"ref": _fill("eyJ. ")}}),
    "jwts": lambda: json.dumps([JWT] * (2 * MiB // (len(JWT) + 4))),
    "card-like run": lambda: json.dumps({"Note": _fill("4111 1111 1111 1111 ")}),
    "card numbers": lambda: json.dumps(["4111111111111111"] * (2 * MiB // 20)),
    "digit strings": lambda: json.dumps(["1"] * (2 * MiB // 5)),
    "tax-id-like": lambda: json.dumps({"Note": _fill("529.982.247-25 11.222.333/0001-81 123-45-6789 ")}),
    "nested arrays": lambda: "[" * (2 * MiB),
    "nested objects": lambda: _fill('{"a":'),
    "tiny values": lambda: json.dumps([0] * (2 * MiB // 3)),
    "a secret's container": lambda: json.dumps({"password": [[0]] * (2 * MiB // 6)}),
    "numbered keys": lambda: json.dumps({str(i): 0 for i in range(2 * MiB // 13)}),
    "one huge key": lambda: json.dumps({_fill("eyJ"): 1}),
    "mixed": lambda: json.dumps({"Tags": {"a": _fill("eyJ", MiB // 2), "c": "[" * (MiB // 2),
                                          "b": _fill("4111 1111 1111 1111 ", MiB // 2)}}),
}

# Strings for the scrubber alone, twice as long as a body ever hands it (the limit plus a margin):
# each pattern must be linear on its own.
STRING = 2 * MAX_BODY_BYTES
HOSTILE_STRINGS = {
    "eyJ run": lambda: _fill("eyJ", STRING),
    "eyJ dots": lambda: _fill("eyJ.", STRING),
    "bearer": lambda: _fill("bearer ", STRING),
    "bearer spaces": lambda: "bearer" + " " * STRING + "x",
    "api key prefixes": lambda: _fill("sk_live_", STRING),
    "digits": lambda: _fill("4", STRING),
    "digit pairs": lambda: _fill("1 ", STRING),
    "dashes": lambda: _fill("1-", STRING),
}

_CHILD = """
import json, sys, time
from tests.platform.test_request_log_bounded import HOSTILE, HOSTILE_STRINGS
from models.platform.request_log.body import redact_body
from models.platform.request_log.redaction import scrub

table, names = sys.argv[1], sys.argv[2:]
for name in names:
    if table == "bodies":
        value = HOSTILE[name]().encode()
        work = lambda: redact_body(value)
    else:
        value = HOSTILE_STRINGS[name]()
        work = lambda: scrub(value)
    best = float("inf")
    for _ in range(5):
        started = time.thread_time()
        work()
        best = min(best, time.thread_time() - started)
    print(json.dumps([name, best * 1000]), flush=True)
"""


def cpu_ms_in_child(table: str, names: list[str], deadline: float = 120.0) -> dict[str, float]:
    """Best-of-5 CPU milliseconds per input, measured in a child process given ``deadline`` seconds."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, table, *names], cwd=ROOT, capture_output=True,
                              text=True, timeout=deadline)
    except subprocess.TimeoutExpired as timeout:
        finished = [json.loads(line)[0] for line in (timeout.stdout or b"").decode().splitlines() if line]
        pytest.fail(f"still redacting after {deadline}s; finished: {finished}")
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(line) for line in done.stdout.splitlines() if line)


def test_hostile_bodies_are_redacted_in_bounded_time():
    timings = cpu_ms_in_child("bodies", list(HOSTILE))
    slow = {name: round(ms, 1) for name, ms in timings.items() if ms >= BUDGET_MS}
    assert slow == {}, f"over {BUDGET_MS} ms: {slow}; all: {timings}"


def test_every_scrub_pattern_is_linear():
    timings = cpu_ms_in_child("strings", list(HOSTILE_STRINGS))
    slow = {name: round(ms, 1) for name, ms in timings.items() if ms >= BUDGET_MS}
    assert slow == {}, f"over {BUDGET_MS} ms: {slow}; all: {timings}"


def _captured(body: bytes) -> Captured:
    answer = b'{"Error": {"Code": "InvalidApiKey"}}'
    return Captured(datetime.now(timezone.utc), 1.0, "POST", "/v1/emails/send", "/v1/emails/send", (), None,
                    401, None, "0" * 64, None, "req_x", "0" * 32, body, answer)


def test_the_buffer_is_capped_in_bytes_not_only_in_records():
    buffer = RequestLogBuffer()
    body = b"x" * (2 * MiB)
    for _ in range(64):
        buffer.add(_captured(body))
    assert 0 < len(buffer.pending) < 64 and buffer.dropped == 64 - len(buffer.pending)
    assert buffer.held_bytes <= MAX_PENDING_BYTES
    # What is left of the budget still takes a small record.
    held = len(buffer.pending)
    buffer.add(_captured(b"{}"))
    assert len(buffer.pending) == held + 1


async def test_the_api_keeps_answering_while_hostile_bodies_are_logged(start_server, make_account):
    """Hostile bodies sent with a revoked key (answered 401 at once, but logged: the key belongs to
    an account) while /healthz is probed: every probe answers promptly, and the bodies are logged,
    cut and redacted."""
    server = start_server("platform", PLATFORM_PORT=str(free_port()))
    account = await make_account(scopes=("email:send",))
    revoked, revoked_key = await create_key(account.tenant_id, "revoked", ["email:send"], KeyKind.LIVE)
    await revoke_key(revoked.public_id)
    bodies = [HOSTILE[name]().encode() for name in ("jwt-like run", "card-like run", "mixed")]
    probes: list[float] = []
    stop = asyncio.Event()

    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        async def probe() -> None:
            while not stop.is_set() or len(probes) < 10:  # at least 10, however fast the rest went
                started = time.monotonic()
                response = await client.get("/healthz")
                assert response.status_code == 200
                probes.append(time.monotonic() - started)
                await asyncio.sleep(0.02)

        prober = asyncio.create_task(probe())
        try:
            request_ids = []
            for body in bodies:
                response = await client.post("/v1/emails/send", content=body, headers={
                    "Authorization": f"Bearer {revoked_key}", "Content-Type": "application/json"})
                assert response.status_code == 401
                request_ids.append(response.headers["X-Request-Id"])
            rows = await _logged(request_ids, seconds=60)
        finally:
            stop.set()
            await prober
    assert max(probes) < 1.0, sorted(probes)[-5:]
    for row in rows:
        assert row.request_body_truncated and len(row.request_body.encode()) <= MAX_BODY_BYTES
        assert "eyJeyJ" not in row.request_body and "4111 1111 1111 1111" not in row.request_body
        assert row.api_key_id == revoked.public_id and row.status == 401


async def _logged(request_ids: list[str], seconds: float) -> list[RequestLog]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = await RequestLog.filter(request_id__in=request_ids)
        if len(rows) == len(request_ids):
            return rows
        await asyncio.sleep(0.1)
    raise AssertionError(f"not logged within {seconds}s: {request_ids}")
