"""Rotating SECRET_KEY (docs/operations.md, "Rotating SECRET_KEY"): a list of keys, newest first,
opens what any of them sealed and seals with the newest; ``herald keys reseal`` moves a stack's
values to the newest key and ``herald keys check`` says when the old one can go."""

from __future__ import annotations

import json
import subprocess
import sys

import asyncpg
import pytest

from app.http import errors
from app.http.cursors import open_cursor, sign_cursor
from kit.config_values import ConfigError
from kit.sealing import Sealer, SealError, SignatureExpired
from kit.settings import load_settings
from models.crm.contact import SEALER as CRM, index_purpose, pii_purpose
from models.platform.domain import DKIM_KEY
from models.platform.provider_config import PROVIDER_SECRETS
from models.platform.request_log import stream
from tests.fixtures.harness import ROOT
from tests.fixtures.stack import Stack

OLD = "the-old-key-of-at-least-thirty-two-characters"
NEW = "the-new-key-of-at-least-thirty-two-characters"
OTHER = "a-key-never-listed-of-at-least-thirty-two-chars"
SYSTEMS = ("platform", "identity", "crm")  # the stack's own databases (the others are the run's)


def test_secret_key_is_a_list_newest_first():
    settings = load_settings({"SECRET_KEY": f"{NEW} , {OLD}"})
    assert (settings.require_secret_key(), settings.require_secret_keys()) == (NEW, (NEW, OLD))
    alone = load_settings({"SECRET_KEY": f" {OLD}"})  # a single key is taken exactly as it is
    assert alone.require_secret_keys() == (f" {OLD}",)
    with pytest.raises(ConfigError, match="key 2 of the comma-separated list must be at least 32 characters"):
        load_settings({"SECRET_KEY": f"{NEW},short"})
    with pytest.raises(ConfigError, match="the same key twice"):
        load_settings({"SECRET_KEY": f"{NEW},{NEW}"})


def test_values_sealed_under_the_old_key_open_under_the_list_and_reseal_under_the_newest():
    old, both, new = Sealer("crm", (OLD,)), Sealer("crm", (NEW, OLD)), Sealer("crm", (NEW,))
    sealed = old.seal_text("purpose", b"kept")
    assert both.opened_text("purpose", sealed) == (b"kept", 1)
    with pytest.raises(SealError):
        new.unseal_text("purpose", sealed)
    moved = both.reseal_text("purpose", sealed)
    assert new.unseal_text("purpose", moved) == b"kept" and both.reseal_text("purpose", moved) is None
    fresh = both.seal("purpose", b"raw")  # sealed with the newest
    assert new.unseal("purpose", fresh) == b"raw" and both.reseal("purpose", fresh) is None
    with pytest.raises(SealError):
        old.unseal("purpose", fresh)
    with pytest.raises(SealError):  # under no listed key
        both.unseal_text("purpose", Sealer("crm", (OTHER,)).seal_text("purpose", b"x"))


def test_signatures_and_digests_under_the_old_key_verify_under_the_list():
    old, both, new = Sealer("identity", (OLD,)), Sealer("identity", (NEW, OLD)), Sealer("identity", (NEW,))
    token = old.sign("ticket", {"u": "usr_x"}, ttl=60)
    assert both.unsign("ticket", token)["u"] == "usr_x" and new.unsign("ticket", token) is None
    with pytest.raises(SignatureExpired):
        both.unsign("ticket", old.sign("ticket", {"u": "usr_x"}, ttl=-1))
    digest = old.keyed_digest("recovery-code", "usr_x:ABCD")
    assert both.keyed_digests("recovery-code", "usr_x:ABCD") == [new.keyed_digest("recovery-code", "usr_x:ABCD"),
                                                                   digest]
    assert both.digest_matches("recovery-code", "usr_x:ABCD", digest[:16], 16)
    assert not new.digest_matches("recovery-code", "usr_x:ABCD", digest)
    assert not both.digest_matches("recovery-code", "usr_x:ABCD", "ç" + digest[1:])


def test_cursors_and_request_log_entries_of_the_old_key_open_under_the_list():
    cursor = sign_cursor({"offset": 20}, secret_keys=(OLD,), audience="acc_a")
    assert open_cursor(cursor, secret_keys=(NEW, OLD), audience="acc_a") == {"offset": 20}
    with pytest.raises(errors.InvalidCursor):
        open_cursor(cursor, secret_keys=(NEW,), audience="acc_a")
    with pytest.raises(errors.InvalidCursor):
        open_cursor(cursor, secret_keys=(NEW, OLD), audience="acc_b")
    assert open_cursor(sign_cursor(1, secret_keys=(NEW, OLD), audience="a"), secret_keys=(NEW,), audience="a") == 1

    entry = stream.Sealer(OLD).seal_many([_record()])[0]
    assert stream.Sealer(NEW, OLD).open(entry).path == "/v1/emails"
    with pytest.raises(ValueError):
        stream.Sealer(NEW).open(entry)


def test_every_column_named_as_sealed_is_in_the_catalogue_reseal_walks():
    """A new ``*_sealed`` / ``*_enc`` / ``sealed_*`` column left out of herald/sealed.py would stay under
    the old key and be lost when it is dropped (columns named otherwise are listed there by hand)."""
    import importlib
    import pkgutil

    from tortoise.models import Model

    from herald.sealed import CATALOGUE
    from kit.systems import DATA_SYSTEMS

    for system in DATA_SYSTEMS:
        package = importlib.import_module(f"models.{system.name}")
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if ".migrations" not in module.name:
                importlib.import_module(module.name)

    def models(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from models(sub)

    listed = {(sealed.table, column) for tables in CATALOGUE.values() for sealed in tables for column in sealed.columns}
    # Only the project's models: applying migrations in this process (the test databases' templates)
    # leaves Tortoise's state models behind, tables of the past among them (identity's ``outbox``).
    named = {(model._meta.db_table, name) for model in models(Model)
             if not model._meta.abstract and model.__module__.startswith("models.")
             for name in model._meta.fields_map if name.endswith(("_sealed", "_enc")) or name.startswith("sealed_")}
    assert named and named <= listed, named - listed


def _record() -> stream.Record:
    from datetime import datetime, timezone

    return stream.Record(created_at=datetime.now(timezone.utc), duration_ms=1.0, method="GET", path="/v1/emails",
                         route=None, known_query=(), args=None, status=200, principal=None, key_digest=None,
                         idempotency_header=None, request_id="req", trace_id="trace", request_body=None,
                         response_body=None)


def _run(stack: Stack, secret_key: str, *argv: str) -> tuple[int, dict, str]:
    """``argv`` (a module and its arguments) with the stack's settings and ``secret_key``."""
    result = subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**stack.env, "SECRET_KEY": secret_key, "PATH": "/usr/bin:/bin"})
    assert result.stdout, result.stderr
    return result.returncode, json.loads(result.stdout), result.stderr


@pytest.mark.slow  # five databases and each command as a process of its own
async def test_a_stack_rotates_its_key(services, tmp_path):
    email = "ada@example.com"
    async with Stack(services, tmp_path, systems=SYSTEMS) as stack:
        code, sealed, errors_ = _run(stack, OLD, "tests.herald.keys_steps", "seal", "Ada@Example.com")
        assert code == 0, errors_
        platform = await asyncpg.connect(stack.database_url.replace("postgres://", "postgresql://", 1))
        crm = await asyncpg.connect(stack.env["CRM_DATABASE_URL"].replace("postgres://", "postgresql://", 1))
        try:
            # A value under a key no longer listed: counted and named, never written.
            lost = Sealer("platform", (OTHER,)).seal_json(PROVIDER_SECRETS, {"token": "x"})
            lost_id = await platform.fetchval(
                "INSERT INTO provider_configs (tenant_id, channel, key, settings, secrets, created_at, updated_at) "
                "VALUES ($1, 'sms', 'twilio', '{}'::jsonb, $2, now(), now()) RETURNING id", sealed["TenantPk"], lost)

            code, before, _ = _run(stack, f"{NEW},{OLD}", "herald.cli", "keys", "check", *SYSTEMS)
            assert code == 1 and before["Systems"]["crm"]["contacts"]["OlderKey"] == 1
            assert before["Systems"]["platform"]["provider_configs"] == {
                "OlderKey": 1, "Current": 0, "Unreadable": 1, "UnreadableIds": [lost_id]}

            code, resealed, stderr = _run(stack, f"{NEW},{OLD}", "herald.cli", "keys", "reseal", *SYSTEMS)
            assert code == 1 and "open under no key" in stderr
            tables = {**resealed["Systems"]["platform"], **resealed["Systems"]["crm"]}
            assert tables["provider_configs"]["Resealed"] == tables["sender_domains"]["Resealed"] == 1
            assert tables["contacts"]["Resealed"] == 1 and tables["provider_configs"]["UnreadableIds"] == [lost_id]
            assert await platform.fetchval("SELECT secrets FROM provider_configs WHERE id = $1", lost_id) == lost

            # Everything now opens under the new key alone, and no longer under the old one.
            new = Sealer("platform", (NEW,))
            secrets_ = await platform.fetchval("SELECT secrets FROM provider_configs WHERE tenant_id = $1 AND "
                                               "channel = 'email'", sealed["TenantPk"])
            assert new.unseal_json(PROVIDER_SECRETS, secrets_) == {"password": "hunter2"}
            dkim = await platform.fetchval("SELECT dkim_private_key FROM sender_domains WHERE tenant_id = $1",
                                           sealed["TenantPk"])
            assert new.unseal_text(DKIM_KEY, dkim).startswith(b"-----BEGIN")
            with pytest.raises(SealError):
                Sealer("platform", (OLD,)).unseal_text(DKIM_KEY, dkim)
            row = await crm.fetchrow("SELECT tenant, email_sealed, email_index, name_sealed FROM contacts "
                                     "WHERE public_id = $1", sealed["ContactId"])
            pii = Sealer("crm", (NEW,))
            assert pii.unseal_text(pii_purpose(row["tenant"]), row["email_sealed"]) == email.encode()
            assert pii.unseal_text(pii_purpose(row["tenant"]), row["name_sealed"]) == b"Ada"
            assert row["email_index"] == pii.keyed_digest(index_purpose(row["tenant"]), f"email:{email}")
            assert CRM.keyed_digest(index_purpose(row["tenant"]), f"email:{email}") != row["email_index"]

            await platform.execute("DELETE FROM provider_configs WHERE id = $1", lost_id)
            code, after, stderr = _run(stack, f"{NEW},{OLD}", "herald.cli", "keys", "check", *SYSTEMS)
            assert code == 0 and (after["OlderKey"], after["Unreadable"]) == (0, 0), stderr
        finally:
            await platform.close()
            await crm.close()

        # A recovery code made under the old key: accepted while the old key is listed, not once it is gone.
        user, codes = sealed["UserId"], sealed["Codes"]
        accepted = _run(stack, f"{NEW},{OLD}", "tests.herald.keys_steps", "recover", user, codes[0])[1]
        assert accepted == {"Accepted": True}
        # Under the new key alone the CRM finds the contact by e-mail: a listing, and an upsert that updates.
        code, found, stderr = _run(stack, NEW, "tests.herald.keys_steps", "lookup", email, user, codes[1])
        assert code == 0, stderr
        assert found == {"Listed": [sealed["ContactId"]], "Upserted": sealed["ContactId"], "Created": False,
                         "Accepted": False}
