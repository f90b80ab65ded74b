"""What Herald's processes write to their logs (kit/logs.py, docs/observability.md): in production
one JSON object per line, each line once, an access line per request with the path but never its
query string or a credential; the worker's lines the same through Dramatiq's pipes; and under
`herald up`, files the supervisor rotates."""

from __future__ import annotations

import asyncio
import json
import sys
import time

import httpx
import pytest

from herald import supervisor
from herald.supervisor import Child, Supervisor
from tests.fixtures.harness import Process, free_port
from tests.fixtures.polling import until

INVITATION_TOKEN = "inv-secret-" + "7a" * 12


def json_lines(text: str) -> list[dict]:
    """Every line of ``text`` as a JSON object; a line that is not one fails the test."""
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            raise AssertionError(f"not a JSON line: {line!r}\n{text[-3000:]}") from None
    return lines


async def test_a_production_server_writes_each_line_once_as_json_with_a_clean_access_line(start_server,
                                                                                        make_account):
    account = await make_account(scopes=("email:read",))
    # HERALD_ENV=production alone chooses JSON (LOG_FORMAT unset); bcrypt at the contract's cost there.
    server = start_server("platform", PLATFORM_PORT=str(free_port()), HERALD_ENV="production",
                          PASSWORD_HASH_COST="12", LOG_LEVEL="INFO")
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        listed = await client.get("/v1/emails", params={"limit": "5"}, headers=account.headers)
        assert listed.status_code == 200, listed.text
        # A key in the query (refused: keys go in Authorization) must not reach the log either.
        in_query = await client.get("/v1/emails", params={"api_key": account.key})
        assert in_query.status_code == 401, in_query.text
        preview = await client.get(f"/api/invitations/{INVITATION_TOKEN}/preview")

    async def access_lines() -> list[dict] | None:
        found = [line for line in json_lines(server.log.read_text()) if line["logger"] == "herald.access"]
        return found if len(found) >= 3 else None

    access = await until(access_lines, 10, "three access lines")
    text = server.log.read_text()
    lines = json_lines(text)
    assert len(lines) == len(set(text.splitlines())), "a line was written twice:\n" + text[-3000:]
    for line in lines:
        assert {"time", "level", "logger", "message"} <= line.keys(), line
        assert line["system"] == "platform" and line["role"] == "serve", line
    assert any(line["logger"].startswith("sanic.") for line in lines), text[-3000:]  # Sanic's own, once, as JSON
    # Neither the key nor the invitation's token, in any line; no query string in any access line.
    assert account.key not in text and INVITATION_TOKEN not in text
    by_id = {line["request_id"]: line for line in access}
    first = by_id[listed.headers["X-Request-Id"]]
    assert first["method"] == "GET" and first["path"] == "/v1/emails" and first["route"] == "/v1/emails"
    assert first["status"] == 200 and first["duration_ms"] >= 0
    assert first["account"] == account.tenant_id
    second = by_id[in_query.headers["X-Request-Id"]]
    assert second["path"] == "/v1/emails" and second["status"] == 401 and "account" not in second
    third = by_id[preview.headers["X-Request-Id"]]
    assert third["path"] == "/api/invitations/{token}/preview" and third["status"] == preview.status_code
    assert all("?" not in line["path"] and "?" not in line["message"] for line in access)


@pytest.mark.slow
async def test_the_worker_writes_json_lines_from_its_parent_and_its_worker_processes(services, tmp_path):
    worker = Process("worker", ["worker", "--processes", "1", "--threads", "1"],
                     {**services.env, "LOG_FORMAT": "json", "LOG_LEVEL": "INFO"}, tmp_path / "logs")
    try:
        ready = await until(lambda: asyncio.sleep(0, "Worker process is ready for action." in worker.log.read_text()),
                            60, "the worker ready")
        assert ready
        lines = json_lines(worker.log.read_text())
        assert all(line["role"] == "worker" for line in lines), lines
        loggers = {line["logger"] for line in lines}
        # The parent ("is booting up") and a worker process ("ready"), each through the one set-up.
        assert "dramatiq.MainProcess" in loggers and "dramatiq.WorkerProcess(0)" in loggers, loggers
    finally:
        worker.stop()


@pytest.mark.slow
@pytest.mark.parametrize("role, argv, ready", [
    ("consume", ["consume", "--kinds", "request-log"], "request-log consumer"),
    ("smtpd", ["smtpd"], "listening on"),
])
async def test_the_other_roles_write_json_lines_too(services, tmp_path, role, argv, ready):
    env = {**services.env, "LOG_FORMAT": "json", "LOG_LEVEL": "INFO", "SMTP_RECEIVE_PORT": str(free_port()),
           "SMTP_SUBMISSION_PORT": str(free_port()), "SMTP_TLS_PORT": "0"}
    process = Process(role, argv, env, tmp_path / "logs")
    try:
        await until(lambda: asyncio.sleep(0, ready in process.log.read_text()), 30, f"{role} started")
        lines = json_lines(process.log.read_text())
        assert lines and all(line["role"] == role for line in lines), lines
    finally:
        process.stop()


def test_herald_up_rotates_each_childs_log_file(tmp_path, monkeypatch):
    monkeypatch.setattr(supervisor, "LOG_BYTES", 20_000)
    monkeypatch.setattr(supervisor, "LOG_BACKUPS", 2)
    log = tmp_path / "talker.log"
    program = "import sys\nfor n in range(2000): print(f'line {n:05d} ' + 'x' * 40, flush=n % 100 == 0)"
    child = Supervisor().add(Child("talker", [sys.executable, "-c", program], {}, log=log))
    assert child.process.wait(30) == 0
    for _ in range(100):  # the supervisor's reader drains the pipe after the child has exited
        if "line 01999" in log.read_text():
            break
        time.sleep(0.05)
    files = [log, log.with_name("talker.log.1"), log.with_name("talker.log.2")]
    assert all(path.exists() and path.stat().st_size <= 20_000 for path in files), [p.stat().st_size for p in files]
    assert not log.with_name("talker.log.3").exists()
    kept = "".join(path.read_text() for path in reversed(files)).splitlines()
    # The newest lines, in order, each whole: rotation only drops the oldest.
    assert kept[-1].startswith("line 01999 ") and all(len(line) == len(kept[-1]) for line in kept)
    numbers = [int(line.split()[1]) for line in kept]
    assert numbers == list(range(numbers[0], 2000))
