"""Backing up and restoring a system's database as docs/operations.md says ("Backups and restores"):
``pg_dump --format=custom`` of a running platform's database, ``createdb`` and ``pg_restore`` into a
fresh one, a platform server started on the copy with the same ``SECRET_KEY``, and a message read
back through the API with the key that sent it. The restore is checked the documented ways too:
``herald migrate`` applies nothing to it and ``herald migrate --check`` passes.
"""

from __future__ import annotations

import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import asyncpg
import httpx
import pytest

from herald.embedded import EmbeddedError, postgres_bin
from kit.settings import replace_database
from tests.fixtures.harness import ROOT, Server, free_port
from tests.fixtures.platform import email, wait_status
from tests.fixtures.stack import Stack

pytestmark = pytest.mark.slow  # an isolated platform, a worker, a second server and the PostgreSQL tools


def _major(version_output: str) -> int:
    return int(re.search(r"\) (\d+)", version_output).group(1))


def postgres_tools(server_major: int) -> Path:
    """The folder of a pg_dump no older than the server (pg_dump refuses a newer server): the
    machine's, else the embedded package's (docs/operations.md names both)."""
    folders = []
    if found := shutil.which("pg_dump"):
        folders.append(Path(found).parent)
    try:
        folders.append(postgres_bin())
    except EmbeddedError:  # the embedded extra is not installed
        pass
    for folder in folders:
        version = subprocess.run([str(folder / "pg_dump"), "--version"], capture_output=True, text=True)
        if version.returncode == 0 and _major(version.stdout) >= server_major:
            return folder
    pytest.fail(f"no pg_dump of PostgreSQL {server_major} or later in {folders}")


def run(argv: list[str], env: dict[str, str] | None = None) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert result.returncode == 0, f"{argv[0]}: {result.stdout}{result.stderr}"
    return result.stdout


def libpq(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


async def test_a_restored_platform_database_serves_the_messages_it_held(services, tmp_path):
    async with Stack(services, tmp_path) as stack:
        server = stack.serve()
        key = stack.test_key()
        stack.start("scheduler")
        stack.start("worker")
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            sent = await client.post("/v1/emails/send", headers=headers,
                                     json=email(to=["kept@example.com"], subject="Before the backup"))
            assert sent.status_code == 202, sent.text
            message_id = sent.json()["MessageId"]
            before = await wait_status(client, headers, message_id, "sent", seconds=60)

        connection = await asyncpg.connect(libpq(stack.database_url))
        try:
            server_major = int(await connection.fetchval("SHOW server_version_num")) // 10000
        finally:
            await connection.close()
        tools = postgres_tools(server_major)
        backup = tmp_path / "herald_platform.dump"
        # The documented backup, taken while the platform runs (pg_dump reads one consistent snapshot).
        run([str(tools / "pg_dump"), "--format=custom", f"--file={backup}", f"--dbname={libpq(stack.database_url)}"])
        for role in stack.roles:
            role.stop()
        server.stop()

        restored_name = f"herald_t{services.run_id}_{secrets.token_hex(3)}_restored"
        restored_url = replace_database(stack.database_url, restored_name)
        try:
            run([str(tools / "createdb"), f"--maintenance-db={libpq(replace_database(stack.database_url, 'postgres'))}",
                 restored_name])
            run([str(tools / "pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={libpq(restored_url)}",
                 str(backup)])

            env = {**stack.env, "PLATFORM_DATABASE_URL": restored_url}
            herald = [sys.executable, "-m", "herald.cli"]
            # Checking the restore: every committed migration is recorded in it, none is left to apply...
            applied = run([*herald, "migrate", "platform"], env={**env, "PATH": "/usr/bin:/bin"})
            assert applied.strip() == "migrations applied: platform", applied
            assert run([*herald, "migrate", "--check", "platform"], env={**env, "PATH": "/usr/bin:/bin"})

            # ...and a server on it answers for the message with the key that sent it.
            port = free_port()
            restored = Server("platform", {**env, "PLATFORM_PORT": str(port), "PLATFORM_URL": f"http://127.0.0.1:{port}"},
                              tmp_path / "logs", port)
            try:
                async with httpx.AsyncClient(base_url=restored.url, timeout=30) as client:
                    read = await client.get(f"/v1/emails/{message_id}", headers=headers)
                    listed = await client.get("/v1/emails", headers=headers)
            finally:
                restored.stop()
            assert read.status_code == 200, read.text
            assert {**read.json(), "RequestId": None} == {**before, "RequestId": None}  # each answer has its own
            assert read.json()["Message"]["Status"] == "sent"
            assert listed.status_code == 200, listed.text
            assert message_id in listed.text
        finally:
            connection = await asyncpg.connect(libpq(replace_database(stack.database_url, "postgres")))
            try:
                await connection.execute(f'DROP DATABASE IF EXISTS "{restored_name}" WITH (FORCE)')
            finally:
                await connection.close()
