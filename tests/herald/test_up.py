"""`herald up`: the whole tree on embedded PostgreSQL and Redis, stopped cleanly by SIGTERM; the
README's operator commands run in a second terminal find it."""

import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psutil
import pytest

from kit.systems import SYSTEMS
from tests.fixtures.harness import ROOT, free_port
from tests.fixtures.provider_servers import DnsServer

pytestmark = pytest.mark.slow


def _start(var_dir, ports, log, **extra):
    env = {key: value for key, value in os.environ.items()
           if not key.endswith("DATABASE_URL") and key not in ("REDIS_URL", "SECRET_KEY", "HERALD_ENV")}
    env.update({
        **extra,
        "HERALD_VAR_DIR": str(var_dir),
        "EMBEDDED_POSTGRES_PORT": str(ports["postgres"]),
        "EMBEDDED_REDIS_PORT": str(ports["redis"]),
        "WORKER_METRICS_PORT": str(ports["metrics"]),
        **{f"{s.name.upper()}_PORT": str(ports[s.name]) for s in SYSTEMS},
    })
    return subprocess.Popen([sys.executable, "-m", "herald.cli", "up"], env=env, cwd=ROOT,
                            stdout=log, stderr=subprocess.STDOUT)


def _wait_ready(ports, process, log_path, seconds=120):
    deadline = time.monotonic() + seconds
    pending = [s.name for s in SYSTEMS]
    while pending and time.monotonic() < deadline:
        assert process.poll() is None, log_path.read_text()
        for name in list(pending):
            try:
                if httpx.get(f"http://127.0.0.1:{ports[name]}/readyz", timeout=2).status_code == 200:
                    pending.remove(name)
            except httpx.HTTPError:
                pass
        time.sleep(0.3)
    assert not pending, f"not ready: {pending}\n{log_path.read_text()}"


def _start_up_steps(log_path, ports, since=0, seconds=60):
    """The lines `herald up` printed while starting (from offset ``since`` of its log), once its
    summary is out, with the ports made neutral."""
    deadline = time.monotonic() + seconds
    while "Herald is up (" not in (text := log_path.read_text()[since:]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "Herald is up (" in text, text
    steps = [line for line in text.split("Herald is up (")[0].splitlines() if line.startswith("herald: ")]
    for name in ("postgres", "redis"):
        steps = [line.replace(f":{ports[name]}", f":<{name}>") for line in steps]
    return [re.sub(r"\d+(\.\d+)?s\)$", "Ns)", re.sub(r"\d+ applied", "N applied", line)) for line in steps]


def _demo_key_sends_on_every_channel(platform, output, var_dir):
    """The newcomer's path: the key printed by the first `herald up` sends on all four channels."""
    key = re.search(r"\b(sk_test_[0-9a-f]{48})\b", output).group(1)
    headers = {"Authorization": f"Bearer {key}"}
    sends = {
        "email": ("/v1/emails/send", {"Source": "me@sandbox.herald.test",
                                      "Destination": {"ToAddresses": ["you@example.com"]},
                                      "Message": {"Subject": {"Data": "Hi"}, "Body": {"Text": {"Data": "Hello"}}}}),
        "sms": ("/v1/sms/send", {"To": ["+14155550123"], "Body": "Hello"}),
        "push": ("/v1/push/send", {"Notification": {"Title": "Hi", "Body": "Hello"}, "DeviceTokens": ["device-1"]}),
        "whatsapp": ("/v1/whatsapp/send", {"To": ["+14155550123"], "Body": "Hello"}),
    }
    for channel, (path, body) in sends.items():
        response = httpx.post(platform + path, json=body, headers={**headers, "Idempotency-Key": f"up-{channel}"})
        assert response.status_code == 202, response.text
        message_id = response.json()["MessageId"]
        record = var_dir / "sink" / channel / f"{message_id}.json"
        deadline = time.monotonic() + 30
        while not record.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert record.exists(), f"{channel} message never reached the sink"
        if channel == "email":
            detail = httpx.get(f"{platform}/v1/emails/{message_id}", headers=headers).json()
            assert detail["Message"]["Status"] == "sent"
        replay = httpx.post(platform + path, json=body, headers={**headers, "Idempotency-Key": f"up-{channel}"})
        assert replay.json()["ReusedIdempotency"] is True


def _herald(project, *args):
    """`herald ...` typed in a second terminal in the project directory: no Herald variable set."""
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root")}
    return subprocess.run([str(Path(sys.executable).with_name("herald")), *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=60)


def _first_steps_from_a_second_terminal(project, platform, dns):
    """The README's "First steps" operator commands, against the running stack."""
    def run(*args):
        result = _herald(project, *args)
        assert result.returncode == 0, f"herald {' '.join(args)}: {result.stderr}"
        return json.loads(result.stdout)

    tenant = run("tenant", "create", "--name", "Acme")
    assert tenant["Slug"] == "acme"
    assert run("tenant", "create", "--name", "Acme")["Slug"] == "acme-2"  # another account named Acme
    tenant_id = tenant["TenantId"]
    key = run("key", "create", "--tenant", tenant_id, "--scopes", "email:send,email:read", "--name", "backend")
    domain = run("domain", "add", "--tenant", tenant_id, "mail.acme.example")["Domain"]
    for record in domain["Records"]:
        if record["Purpose"] in ("spf", "dkim"):
            dns.publish(record["Name"], record["Type"], record["Value"])
    assert run("domain", "verify", "--tenant", tenant_id, "mail.acme.example")["Outcome"] == "verified"
    provider = run("provider", "set", "--tenant", tenant_id, "--channel", "sms", "--key", "twilio",
                   "--settings", '{"account_sid": "AC123"}', "--secrets", '{"auth_token": "secret"}')
    assert provider["Key"] == "twilio" and provider["Secrets"] == ["auth_token"]
    senders = httpx.get(platform + "/v1/senders", headers={"Authorization": f"Bearer {key['Key']}"})
    assert senders.status_code == 200, senders.text
    assert [(d["Name"], d["Verified"]) for d in senders.json()["Domains"]] == [("mail.acme.example", True)]


def _get_text(url):
    try:
        return httpx.get(url, timeout=2).text
    except httpx.HTTPError:
        return ""


def _stop(popen):
    """SIGTERM to `herald up`; returns whichever of its descendants are still alive afterwards."""
    tree = [psutil.Process(popen.pid)]
    tree += tree[0].children(recursive=True)
    popen.send_signal(signal.SIGTERM)
    popen.wait(60)
    # `herald up` waits for its children before it exits: give a straggler a bounded moment to go.
    _, alive = psutil.wait_procs(tree[1:], timeout=2)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_up_serves_everything_and_stops_cleanly(tmp_path):
    var_dir = tmp_path / "var"
    ports = {name: free_port() for name in ["postgres", "redis", "metrics"] + [s.name for s in SYSTEMS]}
    log_path = tmp_path / "up.log"
    dns = DnsServer()  # the stack's resolver: `herald domain verify` must ask it

    with open(log_path, "wb") as log:
        popen = _start(var_dir, ports, log, DNS_NAMESERVERS=dns.address)
    process = psutil.Process(popen.pid)
    try:
        _wait_ready(ports, popen, log_path)
        steps = _start_up_steps(log_path, ports)
        assert steps[:4] == [
            f"herald: embedded PostgreSQL initialised in {var_dir / 'postgres'} (first start)",
            "herald: embedded PostgreSQL ready on 127.0.0.1:<postgres>",
            "herald: embedded Redis ready on 127.0.0.1:<redis>",
            "herald: migrations: N applied",
        ]
        assert sorted(steps[4:]) == sorted(f"herald: {s.name} ready (Ns)" for s in SYSTEMS)  # as each answers /readyz
        assert stat.S_IMODE((var_dir / "stack.json").stat().st_mode) == 0o600
        platform = f"http://127.0.0.1:{ports['platform']}"
        ready = httpx.get(platform + "/readyz").json()
        assert ready["status"] == "ready"
        assert ready["checks"]["database"] == "ok" and ready["checks"]["redis"] == "ok"
        missing = httpx.get(platform + "/no/such/route")
        assert missing.status_code == 404 and missing.json()["RequestId"].startswith("req_")
        # Leave a trace in the embedded database to find on the next start.
        dsn = f"postgresql://postgres@127.0.0.1:{ports['postgres']}/herald_platform"
        subprocess.run([sys.executable, "-c", (
            "import asyncio, asyncpg\n"
            "async def main():\n"
            f"    c = await asyncpg.connect({dsn!r})\n"
            "    await c.execute('CREATE TABLE IF NOT EXISTS up_probe (v text)')\n"
            "    await c.execute(\"INSERT INTO up_probe VALUES ('yesterday')\")\n"
            "    await c.close()\n"
            "asyncio.run(main())")], check=True)
        text = log_path.read_text()
        for system in SYSTEMS:
            assert f"http://127.0.0.1:{ports[system.name]}" in text
        _demo_key_sends_on_every_channel(platform, text, var_dir)
        _first_steps_from_a_second_terminal(tmp_path, platform, dns)
        worker_metrics = f"http://127.0.0.1:{ports['metrics']}/"
        deadline = time.monotonic() + 30
        while "herald_queue_depth" not in (text := _get_text(worker_metrics)) and time.monotonic() < deadline:
            time.sleep(1)
        assert 'herald_queue_depth{queue="email",state="ready"} 0.0' in text
        assert len(process.children(recursive=True)) >= 9  # 5 systems, worker, scheduler, postgres, redis
        stack = {popen.pid, *(child.pid for child in process.children(recursive=True))}
    finally:
        survivors = _stop(popen)
        dns.close()
    assert popen.returncode == 0, log_path.read_text()
    assert survivors == []
    assert not (var_dir / "stack.json").exists()
    stopped = _herald(tmp_path, "tenant", "create", "--name", "Acme")
    assert stopped.returncode == 2 and stopped.stderr.splitlines() == [
        "herald: no running stack found under ./var (start one with `make up`, or set DATABASE_URL)"]
    # No process of the stack listens any more. Asked of the sockets, not by connecting: a port it
    # freed may already be another test process's (CI once found one answering /healthz).
    listening = {(conn.laddr.port, conn.pid) for conn in psutil.net_connections("tcp")
                 if conn.status == psutil.CONN_LISTEN}
    still = [(name, port) for name, port in ports.items() if any(p == port and pid in stack for p, pid in listening)]
    assert still == []

    # A second start finds yesterday's data and the same secret key.
    key = (var_dir / "secret_key").read_text()
    first_run = len(log_path.read_text())
    with open(log_path, "ab") as log:
        popen = _start(var_dir, ports, log)
    process = psutil.Process(popen.pid)
    try:
        _wait_ready(ports, popen, log_path)
        steps = _start_up_steps(log_path, ports, since=first_run)
        assert steps[:3] == ["herald: embedded PostgreSQL ready on 127.0.0.1:<postgres>",
                             "herald: embedded Redis ready on 127.0.0.1:<redis>", "herald: migrations: up to date"]
        assert len(steps) == 3 + len(SYSTEMS)
        out = subprocess.run([sys.executable, "-c", (
            "import asyncio, asyncpg\n"
            "async def main():\n"
            f"    c = await asyncpg.connect('postgresql://postgres@127.0.0.1:{ports['postgres']}/herald_platform')\n"
            "    print(await c.fetchval('SELECT v FROM up_probe'))\n"
            "    await c.close()\n"
            "asyncio.run(main())")], check=True, capture_output=True, text=True)
        assert out.stdout.strip() == "yesterday"
        assert (var_dir / "secret_key").read_text() == key
    finally:
        survivors = _stop(popen)
    assert survivors == []
    assert not (var_dir / "stack.json").exists()


def _supervise(monkeypatch, argv):
    """A Supervisor watching one child in a thread, with short timings for the test."""
    import threading

    from herald import supervisor as supervision

    monkeypatch.setattr(supervision, "STARTUP_SECONDS", 0.5)
    monkeypatch.setattr(supervision, "MAX_RESTART_DELAY", 0.2)
    watcher = supervision.Supervisor()
    child = watcher.add(supervision.Child("worker", argv, dict(os.environ)))
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("code", watcher.watch()), daemon=True)
    thread.start()
    return watcher, child, thread, result


def test_a_worker_killed_again_and_again_is_restarted_and_never_stops_herald(monkeypatch):
    watcher, child, thread, result = _supervise(monkeypatch, [sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        for _kill in range(7):  # more than MAX_CRASHES within the crash window
            deadline = time.monotonic() + 10
            while not (child.alive and time.monotonic() - child.started_at > 0.7):
                assert time.monotonic() < deadline, "the killed child was not restarted"
                time.sleep(0.05)
            os.kill(child.process.pid, signal.SIGKILL)
            time.sleep(0.1)
        assert not watcher.stopping and not watcher.failed
    finally:
        watcher.stopping = True
        thread.join(30)
    assert result["code"] == 0


def test_a_start_up_crash_loop_still_stops_herald(monkeypatch):
    watcher, _child, thread, result = _supervise(monkeypatch, [sys.executable, "-c", "raise SystemExit(3)"])
    thread.join(30)
    assert result["code"] == 1 and watcher.failed
