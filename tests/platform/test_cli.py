"""`herald tenant ...` and `herald key ...`: one JSON object on stdout, errors on stderr."""

import json
import re
import subprocess
import sys

from models.platform.api_key import ApiKey
from models.platform.tenant import Tenant
from tests.harness import ROOT


def herald(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


async def test_tenant_and_key_lifecycle():
    created = herald("tenant", "create", "--name", "CLI Tenant", "--slug", "cli-tenant")
    assert created.returncode == 0, created.stderr
    tenant = json.loads(created.stdout)
    assert re.fullmatch(r"acc_[0-9a-f]{24}", tenant["TenantId"])
    assert tenant["Slug"] == "cli-tenant" and tenant["Status"] == "active"

    duplicate = herald("tenant", "create", "--name", "Other", "--slug", "cli-tenant")
    assert duplicate.returncode == 1 and "already in use" in duplicate.stderr

    made = herald("key", "create", "--tenant", tenant["TenantId"], "--scopes", "email:send,sms:send", "--name", "ci",
                  "--test")
    assert made.returncode == 0, made.stderr
    key = json.loads(made.stdout)
    assert set(key) >= {"KeyId", "Key"}
    assert re.fullmatch(r"sk_test_[0-9a-f]{48}", key["Key"])
    row = await ApiKey.get(public_id=key["KeyId"])
    assert row.mode == "test" and row.scopes == ["email:send", "sms:send"]

    assert herald("key", "revoke", key["KeyId"]).returncode == 0
    assert (await ApiKey.get(public_id=key["KeyId"])).revoked_at is not None

    assert json.loads(herald("tenant", "suspend", tenant["TenantId"]).stdout)["Status"] == "suspended"
    assert (await Tenant.get(public_id=tenant["TenantId"])).status == "suspended"
    assert json.loads(herald("tenant", "activate", tenant["TenantId"]).stdout)["Status"] == "active"


async def test_keys_need_catalog_scopes_and_errors_list_the_valid_ones():
    tenant = json.loads(herald("tenant", "create", "--name", "Scoped").stdout)
    for scopes in ["", "full_access", "email:send,emails:*"]:
        result = herald("key", "create", "--tenant", tenant["TenantId"], "--scopes", scopes, "--name", "x")
        assert result.returncode == 1
        assert result.stdout == ""
        assert "valid scopes: email:send, email:read, sms:send" in result.stderr


async def test_unknown_tenant_is_reported():
    result = herald("key", "create", "--tenant", "acc_" + "0" * 24, "--scopes", "email:send", "--name", "x")
    assert result.returncode == 1 and "no tenant" in result.stderr
