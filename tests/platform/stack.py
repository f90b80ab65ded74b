"""An isolated platform for fault tests: its own database, its own Redis, its own processes."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
from pathlib import Path

import asyncpg

from herald.database import drop_databases, migrate
from herald.settings import load_settings, replace_database
from tests.harness import ROOT, Process, Server, Services, flush_redis, free_port


class Stack:
    def __init__(self, services: Services, tmp: Path, redis_url: str | None = None, **env: str):
        name = f"herald_t{services.run_id}_{secrets.token_hex(3)}_platform"
        port = free_port()
        self.tmp = tmp
        self.database_url = replace_database(services.database_url, name)
        self.own_redis = redis_url is None
        self.redis_url = redis_url or Services._redis_database(services.redis_url)
        self.env = {**services.env, "PLATFORM_DATABASE_URL": self.database_url, "REDIS_URL": self.redis_url,
                    "HERALD_VAR_DIR": str(tmp / "var"), "PLATFORM_PORT": str(port),
                    "PLATFORM_URL": f"http://127.0.0.1:{port}", **env}
        self.sink = tmp / "var" / "sink"
        self.roles: list[Process] = []
        self.server: Server | None = None

    async def __aenter__(self) -> "Stack":
        await migrate(load_settings(self.env), ["platform"])
        return self

    async def __aexit__(self, *exc) -> None:
        for role in self.roles:
            role.stop()
        if self.server:
            self.server.stop()
        await drop_databases(load_settings(self.env), ["platform"])
        if self.own_redis:
            flush_redis(self.redis_url)

    def serve(self) -> Server:
        self.server = Server("platform", self.env, self.tmp / "logs", int(self.env["PLATFORM_PORT"]))
        return self.server

    def start(self, role: str, **env: str) -> Process:
        process = Process(role, [role], {**self.env, **env}, self.tmp / "logs")
        self.roles.append(process)
        return process

    def herald(self, *args: str) -> dict:
        result = subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True,
                                text=True, env={**self.env, "PATH": "/usr/bin:/bin"}, timeout=60)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    def test_key(self) -> str:
        tenant = self.herald("tenant", "create", "--name", "Fault")
        return self.herald("key", "create", "--tenant", tenant["TenantId"], "--scopes", "email:send,email:read",
                           "--name", "fault", "--test")["Key"]

    async def statuses(self) -> dict[str, int]:
        connection = await asyncpg.connect(self.database_url.replace("postgres://", "postgresql://", 1))
        try:
            rows = await connection.fetch("SELECT status, count(*) AS n FROM messages GROUP BY status")
        finally:
            await connection.close()
        return {row["status"]: row["n"] for row in rows}

    def sink_ids(self, channel: str = "email") -> list[str]:
        folder = self.sink / channel
        return [path.stem for path in folder.glob("*.json")] if folder.exists() else []

    async def until(self, predicate, seconds: float, what: str):
        for _ in range(int(seconds * 5)):
            value = await predicate()
            if value:
                return value
            await asyncio.sleep(0.2)
        raise AssertionError(f"{what} not reached in {seconds}s; statuses {await self.statuses()}; "
                             f"logs in {self.tmp / 'logs'}")
