"""The operator commands a newcomer reaches for: `herald tenant list`, `herald key list`, and exit
codes that tell a script when a command failed (herald/admin.py, herald/domains.py)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest

from app.platform.api_key.service import create_key, revoke_key
from app.platform.domain.service import add_sender_domain
from app.platform.tenant.service import create_tenant
from models.platform.api_key import ApiKey, KeyKind
from models.platform.domain import dns_records
from tests.fixtures.harness import ROOT, free_port

pytestmark = pytest.mark.slow  # the `herald` command as a process in every test (about 1 s of CPU a call)


def herald(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60)


async def test_tenant_list_names_every_tenant_and_search_narrows_it():
    marker = secrets.token_hex(4)
    first = await create_tenant(f"Listed {marker} one")
    second = await create_tenant(f"Listed {marker} two", parent_id=first.public_id)
    elsewhere = await create_tenant(f"Elsewhere {secrets.token_hex(3)}")

    found = herald("tenant", "list", "--search", marker)
    assert found.returncode == 0, found.stderr
    tenants = json.loads(found.stdout)["Tenants"]
    assert [tenant["TenantId"] for tenant in tenants] == [first.public_id, second.public_id]  # oldest first
    assert tenants[0]["Name"] == f"Listed {marker} one" and tenants[0]["Status"] == "active"

    everything = herald("tenant", "list")
    assert everything.returncode == 0, everything.stderr
    listed = [tenant["TenantId"] for tenant in json.loads(everything.stdout)["Tenants"]]
    assert {first.public_id, second.public_id, elsewhere.public_id} <= set(listed)
    assert herald("tenant", "list", "--search", secrets.token_hex(6)).stdout.strip() == '{"Tenants": []}'


async def test_key_list_shows_a_tenants_keys_by_prefix_and_never_a_key():
    tenant = await create_tenant(f"Keys {secrets.token_hex(3)}")
    other = await create_tenant(f"Other {secrets.token_hex(3)}")
    live, live_key = await create_key(tenant.public_id, "backend", ["email:send"], KeyKind.LIVE)
    test, test_key = await create_key(tenant.public_id, "ci", ["email:send", "email:read"], KeyKind.TEST)
    _, other_key = await create_key(other.public_id, "not theirs", ["email:send"], KeyKind.LIVE)
    await revoke_key(test.public_id)

    listed = herald("key", "list", tenant.public_id)
    assert listed.returncode == 0, listed.stderr
    answer = json.loads(listed.stdout)
    assert answer["TenantId"] == tenant.public_id
    keys = answer["Keys"]
    assert [key["KeyId"] for key in keys] == [live.public_id, test.public_id]
    assert keys[0]["Prefix"] == live_key[:12] and keys[0]["Prefix"].startswith("sk_live_")
    assert keys[1]["Prefix"] == test_key[:12] and keys[1]["Mode"] == "test"
    assert keys[0]["Name"] == "backend" and keys[1]["Scopes"] == ["email:send", "email:read"]
    assert keys[0]["RevokedAt"] is None and keys[1]["RevokedAt"] is not None
    rows = await ApiKey.filter(tenant_id=tenant.id)
    for secret in (live_key, test_key, other_key, *(row.key_hash for row in rows)):
        assert secret not in listed.stdout and secret[12:] not in listed.stdout  # the prefix only

    active = herald("key", "list", tenant.public_id, "--active")
    assert [key["KeyId"] for key in json.loads(active.stdout)["Keys"]] == [live.public_id]

    missing = herald("key", "list", "acc_" + "0" * 24)
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr.splitlines() == [f"herald: no tenant acc_{'0' * 24}"]


async def test_domain_verify_exits_1_until_the_domain_verifies(make_account, dns_server, settings):
    account = await make_account(scopes=("email:send",))
    tenant = await create_tenant(f"Domains {secrets.token_hex(3)}")
    name = f"exit{secrets.token_hex(3)}.example"
    domain = await add_sender_domain(tenant.id, name)
    resolver = {"DNS_NAMESERVERS": dns_server.address}

    failed = herald("domain", "verify", name, "--tenant", tenant.public_id, **resolver)
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["Outcome"] == "failed"  # the result is still there to read
    assert failed.stderr.splitlines() == [
        f"herald: {name} is not verified (failed): spf not published; dkim not published"]

    for record in dns_records(domain, settings.mail_domain):
        if record["Purpose"] in ("spf", "dkim"):
            dns_server.publish(record["Name"], record["Type"], record["Value"])
    verified = herald("domain", "verify", name, "--tenant", tenant.public_id, **resolver)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["Outcome"] == "verified" and verified.stderr == ""

    # Another account's domain is a missing one: a refusal, exit 1, nothing on stdout.
    foreign = herald("domain", "verify", name, "--tenant", account.tenant_id, **resolver)
    assert foreign.returncode == 1 and foreign.stdout == "" and "no domain" in foreign.stderr


@pytest.mark.parametrize("command, says", [
    (["tenant", "suspend", "acc_" + "0" * 24], "no tenant"),
    (["tenant", "create", "--name", "  "], "name must not be empty"),
    (["tenant", "claim-domain", "acc_" + "0" * 24, "example.com"], "no tenant"),
    (["key", "revoke", "key_" + "0" * 24], "no API key"),
    (["flags", "set", "acc_" + "0" * 24, "no-such-flag", "on"], "flag"),
    (["domain", "add", "not a domain", "--tenant", "acc_" + "0" * 24], "no tenant"),
    (["domain", "list", "--tenant", "acc_" + "0" * 24], "no tenant"),
    (["provider", "set", "--tenant", "acc_" + "0" * 24, "--channel", "sms", "--key", "twilio",
      "--settings", "{"], "not valid JSON"),
    (["provider", "set", "--tenant", "acc_" + "0" * 24, "--channel", "sms", "--key", "no-such-provider"],
     "not an installed sms provider"),
    (["staff", "add", "nobody"], "neither"),
])
def test_every_refused_command_exits_1_with_one_line(command, says):
    result = herald(*command)
    assert result.returncode == 1, result.stdout
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("herald: ") and says in lines[0], result.stderr


def test_a_database_that_cannot_be_reached_is_one_line_and_exit_1():
    result = herald("tenant", "list", PLATFORM_DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/nowhere")
    assert result.returncode == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("herald: the database cannot be reached: "), result.stderr
