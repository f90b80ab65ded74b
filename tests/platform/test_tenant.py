"""`herald tenant ...` and `herald key ...`: one JSON object on stdout, errors on stderr."""

import asyncio
import json
import re
import secrets
import subprocess
import sys

import pytest
from tortoise.transactions import in_transaction

from app.platform.errors import ConflictError
from app.platform.tenant.service import create_tenant, slugify
from models.platform.api_key import ApiKey
from models.platform.tenant import Tenant
from tests.fixtures.harness import ROOT


def herald(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.slow  # the `herald` command as a process
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


@pytest.mark.slow  # the `herald` command as a process
async def test_keys_need_catalog_scopes_and_errors_list_the_valid_ones():
    tenant = json.loads(herald("tenant", "create", "--name", "Scoped").stdout)
    for scopes in ["", "full_access", "email:send,emails:*"]:
        result = herald("key", "create", "--tenant", tenant["TenantId"], "--scopes", scopes, "--name", "x")
        assert result.returncode == 1
        assert result.stdout == ""
        assert "valid scopes: email:send, email:read, sms:send" in result.stderr


@pytest.mark.slow  # the `herald` command as a process
async def test_unknown_tenant_is_reported():
    result = herald("key", "create", "--tenant", "acc_" + "0" * 24, "--scopes", "email:send", "--name", "x")
    assert result.returncode == 1 and "no tenant" in result.stderr


@pytest.mark.slow  # the `herald` command as a process
def test_two_tenants_with_the_same_name_are_both_created():
    name = f"Acme {secrets.token_hex(3)}"
    first, second = (herald("tenant", "create", "--name", name) for _ in range(2))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    slugs = [json.loads(result.stdout)["Slug"] for result in (first, second)]
    assert slugs == [slugify(name), f"{slugify(name)}-2"]


async def test_concurrent_creates_of_one_name_all_get_a_unique_slug():
    name = f"Rush {secrets.token_hex(3)}"
    tenants = await asyncio.gather(*(create_tenant(name) for _ in range(8)))
    slugs = {tenant.slug for tenant in tenants}
    assert len(slugs) == 8 and slugify(name) in slugs
    assert await Tenant.filter(name=name).count() == 8


async def test_a_derived_slug_makes_room_within_the_column_and_a_given_one_stays_strict():
    long_name = "Long " + secrets.token_hex(3) + " x" * 60
    first, second = await create_tenant(long_name), await create_tenant(long_name)
    assert len(first.slug) == 99 and not first.slug.endswith("-")  # cut at 100, then its trailing "-"
    assert len(second.slug) <= 100 and second.slug.endswith("-2")
    with pytest.raises(ConflictError, match="already in use"):
        await create_tenant("Someone else", first.slug)


async def test_a_slug_conflict_inside_a_transaction_leaves_it_usable():
    """A dashboard route may create a tenant inside its own transaction: the retried INSERT must
    not find that transaction aborted by the first, refused one."""
    name = f"Nested {secrets.token_hex(3)}"
    await create_tenant(name)
    async with in_transaction("platform"):
        tenant = await create_tenant(name)
        assert tenant.slug == f"{slugify(name)}-2"
    assert await Tenant.filter(name=name).count() == 2
