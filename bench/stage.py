"""The bench's stage: the services (the machine's or embedded), the platform's database with a key,
and the child processes it starts, with their peak memory. bench/__main__.py runs the phases on it."""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import asyncpg
import httpx
import psutil
import redis

from kit.settings import load_settings, replace_database

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def say(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


class Memory:
    """Samples the RSS of the processes it is told about (and their children) every 0.25 s."""

    def __init__(self) -> None:
        self.roots: dict[str, int] = {}
        self.peaks: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def watch(self, name: str, pid: int) -> None:
        self.roots[name] = pid

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            for name, pid in list(self.roots.items()):
                try:
                    root = psutil.Process(pid)
                    rss = sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
                except psutil.Error:
                    continue
                self.peaks[name] = max(self.peaks.get(name, 0), rss)

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self._thread.join()
        return {name: round(peak / 2**20, 1) for name, peak in sorted(self.peaks.items())}


class Stage:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="herald-bench-"))
        self.children: list[subprocess.Popen] = []
        self.services_started: list[subprocess.Popen] = []  # embedded PostgreSQL and Redis, stopped last
        self.memory = Memory()
        self.run_id = secrets.token_hex(3)
        self.env: dict[str, str] = {}

    def services(self) -> None:
        from herald.embedded import EmbeddedPostgres, EmbeddedRedis

        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url:
            server = EmbeddedPostgres(self.tmp, free_port())
            server.prepare()
            command = server.command()
            self.services_started.append(self.spawn("postgres", command.argv, os.environ.copy(),
                                                    user=command.user))
            server.wait_ready()
            database_url = server.url
        if not redis_url:
            server = EmbeddedRedis(self.tmp, free_port())
            server.prepare()
            self.services_started.append(self.spawn("redis", server.command().argv, os.environ.copy()))
            server.wait_ready()
            redis_url = server.url
        redis_url = self._free_redis_db(redis_url)
        port = free_port()
        self.identity_port = free_port()  # the identity server, started only for a session (:meth:`signed_in`)
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "PLATFORM_DATABASE_URL": replace_database(database_url, f"herald_bench_{self.run_id}_platform"),
            "IDENTITY_DATABASE_URL": replace_database(database_url, f"herald_bench_{self.run_id}_identity"),
            "IDENTITY_URL": f"http://127.0.0.1:{self.identity_port}",
            "IDENTITY_INTERNAL_URL": f"http://127.0.0.1:{self.identity_port}",
            "REDIS_URL": redis_url,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "SERVICE_TOKEN": secrets.token_urlsafe(40),
            "HERALD_ENV": "production",
            "HERALD_VAR_DIR": str(self.tmp / "var"),
            "WORKER_METRICS_PORT": "0",
            "LOG_LEVEL": "WARNING",
            "PLATFORM_PORT": str(port),
            "RATE_LIMIT": "10000000",
        }
        self.platform_port = port

    @staticmethod
    def _free_redis_db(url: str) -> str:
        base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
        for index in range(15, 0, -1):
            client = redis.Redis.from_url(f"{base}/{index}")
            try:
                if client.dbsize() == 0:
                    return f"{base}/{index}"
            finally:
                client.close()
        raise SystemExit("bench: no empty Redis logical database")

    def spawn(self, name: str, argv: list[str], env: dict[str, str], user: str | None = None) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - owned by the child
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                   start_new_session=True, user=user)
        self.children.append(process)
        self.memory.watch(name, process.pid)
        return process

    def stop(self, process: subprocess.Popen) -> None:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    async def prepare_database(self) -> None:
        from tortoise.context import TortoiseContext

        from app.platform.api_key.service import create_key
        from app.platform.tenant.service import create_tenant
        from herald.database import migrate
        from models import tortoise_config
        from models.platform.api_key import KeyKind

        settings = load_settings(self.env)
        await migrate(settings, ["platform"])
        async with TortoiseContext() as context:
            await context.init(config=tortoise_config(settings, ["platform"], pool_max=2))
            tenant = await create_tenant("Bench", f"bench-{self.run_id}")
            key_row, key = await create_key(tenant.public_id, "bench", ["email:send", "email:read", "logs:read"],
                                            KeyKind.TEST)
        self.key = key
        self.key_id = key_row.public_id
        self.tenant_id = tenant.public_id
        self.env["BENCH_TENANT_PK"] = str(tenant.id)

    async def signed_in(self) -> str:
        """A person owning the bench account, signed in: the session token the dashboard's ``/api``
        routes take (``Authorization: Bearer``), checked by a real identity server on every request
        as in production. The identity database is migrated and its server started here, once."""
        from tortoise import connections
        from tortoise.context import TortoiseContext

        from app.identity.session.service import open_session
        from app.platform.member.service import link
        from herald.database import migrate
        from models import tortoise_config
        from models.identity.users import User
        from models.platform.member import Role

        settings = load_settings(self.env)
        await migrate(settings, ["identity"])
        self.serve("identity", "app.identity:create_app", self.identity_port)
        async with TortoiseContext() as context:
            await context.init(config=tortoise_config(settings, ["identity", "platform"], pool_max=2))
            identity, platform = connections.get("identity"), connections.get("platform")
            user = await User.create(public_id=f"usr_bench{self.run_id}", email=f"bench-{self.run_id}@example.com",
                                     email_key=f"bench-{self.run_id}@example.com", name="Bench",
                                     password_hash="!", email_verified_at=datetime.now(timezone.utc), using_db=identity)
            _, token = await open_session(identity, user, user_agent="bench", ip="127.0.0.1", method="password")
            await link(platform, int(self.env["BENCH_TENANT_PK"]), user.public_id, Role.OWNER)
        return token

    async def drop_database(self) -> None:
        from herald.database import drop_databases

        await drop_databases(load_settings(self.env), ["platform", "identity"])
        client = redis.Redis.from_url(self.env["REDIS_URL"])
        client.flushdb()
        client.close()

    def wait_http(self, port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code in (200, 404):
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit(f"bench: nothing answers on {port}; logs in {self.tmp}")

    def serve(self, name: str, target: str, port: int, workers: int = 1) -> subprocess.Popen:
        argv = [sys.executable, "-m", "sanic", target, "--factory", "--host", "127.0.0.1", "--port", str(port),
                "--no-motd", *(["--single-process"] if workers == 1 else ["--workers", str(workers)])]
        process = self.spawn(name, argv, self.env)
        self.wait_http(port)
        return process

    async def connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.env["PLATFORM_DATABASE_URL"].replace("postgres://", "postgresql://", 1))

    def close(self) -> dict[str, float]:
        """Stop what the bench started, but the embedded servers (see close_services)."""
        for process in reversed(self.children):
            if process not in self.services_started:
                self.stop(process)
        return self.memory.stop()

    def close_services(self) -> None:
        for process in reversed(self.services_started):
            self.stop(process)
