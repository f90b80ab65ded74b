"""A second terminal's `herald ...` finds the stack `herald up` runs under ./var/ (herald/stack.py).

These use a stack file written the way `herald up` writes it, for this test process (alive) and
the run's databases; tests/herald/test_up.py goes through a real `herald up`.
"""

import json
import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from app.platform.tenant.service import create_tenant
from kit.settings import load_settings
from herald.stack import STACK_FILE, remove_stack, write_stack
from models.platform.domain import SenderDomain
from models.platform.tenant import Tenant
from tests.fixtures.provider_servers import DnsServer

pytestmark = pytest.mark.slow  # the herald command as processes of its own, as a second terminal runs it

HERALD = str(Path(sys.executable).with_name("herald"))
NO_STACK = "herald: no running stack found under ./var (start one with `make up`, or set DATABASE_URL)"


def herald(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`herald ...` as a user types it in ``project``: nothing of Herald's in the environment."""
    clean = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), **env}
    return subprocess.run([HERALD, *args], cwd=project, env=clean, capture_output=True, text=True, timeout=60)


@pytest.fixture
def dns():
    server = DnsServer()
    yield server
    server.close()


@pytest.fixture
def project(tmp_path, services, dns):
    """A project directory whose ./var/stack.json points at the run's databases and a loopback DNS server."""
    env = {**services.env, "HERALD_VAR_DIR": str(tmp_path / "var"), "DNS_NAMESERVERS": dns.address}
    (tmp_path / "var").mkdir()
    write_stack(load_settings(env), env)
    return tmp_path


def test_without_a_stack_every_command_says_so_in_one_line(tmp_path):
    commands = (["tenant", "create", "--name", "Acme"], ["domain", "list", "--tenant", "acc_x"], ["migrate"])
    for command in commands:
        result = herald(tmp_path, *command)
        assert result.returncode == 2
        assert result.stderr.splitlines() == [NO_STACK] and result.stdout == ""


def test_a_stack_file_left_by_a_killed_herald_up_is_stale(tmp_path, services):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True)
    env = {**services.env, "HERALD_VAR_DIR": str(tmp_path / "var")}
    (tmp_path / "var").mkdir()
    path = write_stack(load_settings(env), env)
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "pid": int(finished.stdout)}))
    result = herald(tmp_path, "tenant", "create", "--name", "Acme")
    assert result.returncode == 2 and result.stderr.splitlines() == [NO_STACK]


def test_the_stack_file_is_private_and_holds_the_effective_settings(project, services, dns):
    path = project / "var" / STACK_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    record = json.loads(path.read_text())
    assert record["pid"] == os.getpid()
    recorded = record["env"]
    assert recorded["SECRET_KEY"] == services.env["SECRET_KEY"]
    assert recorded["PLATFORM_DATABASE_URL"] == services.env["PLATFORM_DATABASE_URL"]
    assert recorded["DNS_NAMESERVERS"] == dns.address
    assert recorded["PLATFORM_PORT"] == services.env["PLATFORM_PORT"] and "HERALD_VAR_DIR" not in recorded
    assert "PATH" not in recorded and "HOME" not in recorded  # only Herald's own variables
    remove_stack(project / "var")
    assert not path.exists()


async def test_commands_use_the_running_stack(project, dns):
    created = herald(project, "tenant", "create", "--name", "Acme")
    assert created.returncode == 0, created.stderr
    tenant_id = json.loads(created.stdout)["TenantId"]
    assert await Tenant.filter(public_id=tenant_id).exists()

    name = f"mail{secrets.token_hex(3)}.example"
    added = herald(project, "domain", "add", name, "--tenant", tenant_id)  # seals the DKIM key: SECRET_KEY
    assert added.returncode == 0, added.stderr
    for record in json.loads(added.stdout)["Domain"]["Records"][:2]:  # SPF and DKIM
        dns.publish(record["Name"], record["Type"], record["Value"])
    verified = herald(project, "domain", "verify", name, "--tenant", tenant_id)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["Outcome"] == "verified"  # asked the stack's resolver
    assert (await SenderDomain.get(name=name)).verified_at is not None


async def test_a_variable_set_in_the_environment_wins_over_the_stack(project, dns):
    tenant_id = json.loads(herald(project, "tenant", "create", "--name", "Acme").stdout)["TenantId"]
    name = f"mail{secrets.token_hex(3)}.example"
    assert herald(project, "domain", "add", name, "--tenant", tenant_id).returncode == 0
    other = DnsServer()
    try:
        result = herald(project, "domain", "verify", name, "--tenant", tenant_id,
                        DNS_NAMESERVERS=other.address)
        assert result.returncode == 1 and json.loads(result.stdout)["Outcome"] == "failed"  # nothing published there
        assert any(query[0].endswith(name) for query in other.queries)
        assert not any(query[0].endswith(name) for query in dns.queries)
    finally:
        other.close()


async def test_a_database_in_the_environment_means_the_stack_is_not_consulted(project, services):
    """DATABASE_URL aims the command elsewhere: the stack's SECRET_KEY must not come with it."""
    tenant = await create_tenant("Elsewhere")
    result = herald(project, "domain", "add", "x.example", "--tenant", tenant.public_id,
                    PLATFORM_DATABASE_URL=services.env["PLATFORM_DATABASE_URL"])
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "herald: configuration error: SECRET_KEY: is required (at least 32 characters)"]


def test_a_second_herald_up_on_a_running_stack_refuses_to_start(project):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root")}
    result = subprocess.run([HERALD, "up"], cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"herald: a stack is already running under ./var (pid {os.getpid()}); "
        "stop it first, or set HERALD_VAR_DIR to start another"]
    assert (project / "var" / STACK_FILE).exists()
    assert not (project / "var" / "postgres").exists()  # nothing was started

