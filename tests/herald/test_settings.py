"""Configuration: read once, validated, one line naming the variable on error."""

import subprocess
import sys

import pytest

from kit.settings import ConfigError, load_settings, settings_variables
from tests.fixtures.harness import ROOT

GOOD = {"DATABASE_URL": "postgres://u:p@db.example:5432/x", "REDIS_URL": "redis://r:6379/0",
        "SECRET_KEY": "k" * 40}


def test_each_system_gets_its_own_database_on_the_server():
    settings = load_settings(GOOD)
    assert settings.database_url_for("platform") == "postgres://u:p@db.example:5432/herald_platform"
    assert settings.database_url_for("identity").endswith("/herald_identity")


def test_a_per_system_url_overrides_the_shared_server():
    settings = load_settings({**GOOD, "CRM_DATABASE_URL": "postgresql://c@crm-db:5432/crm"})
    assert settings.database_url_for("crm") == "postgres://c@crm-db:5432/crm"
    assert settings.database_url_for("pages").endswith("/herald_pages")


def test_the_streams_redis_is_redis_url_unless_streams_redis_url_names_one():
    assert load_settings(GOOD).streams_redis_url == "redis://r:6379/0"
    moved = load_settings({**GOOD, "STREAMS_REDIS_URL": "redis://streams:6379/0"})
    assert moved.streams_redis_url == moved.require_streams_redis_url() == "redis://streams:6379/0"
    assert moved.redis_url == "redis://r:6379/0"
    assert "STREAMS_REDIS_URL" in settings_variables({**GOOD, "STREAMS_REDIS_URL": "redis://streams:6379/0"})


def test_a_pixels_byte_budget_is_32_mib_a_minute_unless_set():
    assert load_settings(GOOD).runtime_collect_credential_mib == 32
    assert load_settings({**GOOD, "RUNTIME_COLLECT_CREDENTIAL_MIB": "64"}).runtime_collect_credential_mib == 64


def test_the_embedded_redis_has_a_ceiling_and_never_evicts(tmp_path, monkeypatch):
    from herald.embedded import EmbeddedRedis
    from herald.up import _embedded_maxmemory

    argv = EmbeddedRedis(tmp_path, 1).command().argv
    assert argv[argv.index("--maxmemory") + 1] == "256mb"
    assert argv[argv.index("--maxmemory-policy") + 1] == "noeviction"
    monkeypatch.setenv("EMBEDDED_REDIS_MAXMEMORY", "512MB")
    assert _embedded_maxmemory() == "512mb"
    monkeypatch.setenv("EMBEDDED_REDIS_MAXMEMORY", "lots")
    with pytest.raises(ConfigError, match="^EMBEDDED_REDIS_MAXMEMORY"):
        _embedded_maxmemory()


@pytest.mark.parametrize("env, variable", [
    ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL"),
    ({"REDIS_URL": "http://nope"}, "REDIS_URL"),
    ({"STREAMS_REDIS_URL": "http://nope"}, "STREAMS_REDIS_URL"),
    ({"RUNTIME_COLLECT_CREDENTIAL_MIB": "0"}, "RUNTIME_COLLECT_CREDENTIAL_MIB"),
    ({"SECRET_KEY": "short"}, "SECRET_KEY"),
    ({"PLATFORM_PORT": "eighty"}, "PLATFORM_PORT"),
    ({"PLATFORM_PORT": "70000"}, "PLATFORM_PORT"),
    ({"HERALD_ENV": "staging"}, "HERALD_ENV"),
    ({"PAGES_DATABASE_URL": "postgres:///nohost"}, "PAGES_DATABASE_URL"),
])
def test_malformed_values_name_the_variable(env, variable):
    with pytest.raises(ConfigError) as caught:
        load_settings({**GOOD, **env})
    assert caught.value.variable == variable
    assert str(caught.value).startswith(variable)


def test_missing_database_url_is_reported_when_needed():
    settings = load_settings({"REDIS_URL": "redis://r:6379/0"})
    with pytest.raises(ConfigError, match="^DATABASE_URL"):
        settings.database_url_for("platform")


@pytest.mark.slow  # `herald serve` as a process of its own
def test_a_serving_process_stops_with_one_line_naming_the_variable():
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": "postgres://x@127.0.0.1/y", "REDIS_URL": "redis://127.0.0.1:1/0"}
    result = subprocess.run([sys.executable, "-m", "herald.cli", "serve", "platform", "--port", "1"],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == ["herald: configuration error: SECRET_KEY: is required (at least 32 characters)"]


def test_the_variables_herald_up_records_are_every_one_the_settings_read():
    names = settings_variables(GOOD)
    assert {"DATABASE_URL", "PLATFORM_DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SERVICE_TOKEN", "DNS_NAMESERVERS",
            "PLATFORM_PORT", "MAIL_DOMAIN", "EMAIL_PROVIDER_CONFIG", "IDENTITY_MAIL_KEY"} <= names
    assert "PATH" not in names


def test_relay_systems_name_systems_with_an_outbox():
    assert load_settings(GOOD).relay_systems == ()  # every system with an outbox
    assert load_settings({**GOOD, "RELAY_SYSTEMS": "identity, platform"}).relay_systems == ("identity", "platform")
    with pytest.raises(ConfigError, match="RELAY_SYSTEMS"):
        load_settings({**GOOD, "RELAY_SYSTEMS": "platform,nosuch"})


def test_bcrypt_cost_is_12_and_lower_only_in_tests():
    assert load_settings(GOOD).password_hash_cost == 12
    assert load_settings({**GOOD, "PASSWORD_HASH_COST": "14"}).password_hash_cost == 14
    with pytest.raises(ConfigError, match="PASSWORD_HASH_COST"):
        load_settings({**GOOD, "PASSWORD_HASH_COST": "4"})
    with pytest.raises(ConfigError, match="PASSWORD_HASH_COST"):
        load_settings({**GOOD, "HERALD_ENV": "production", "PASSWORD_HASH_COST": "11"})
    assert load_settings({**GOOD, "HERALD_ENV": "test", "PASSWORD_HASH_COST": "4"}).password_hash_cost == 4


PASSKEY_HOSTS = {**GOOD, "CONSOLE_URL": "https://console.herald.test", "IDENTITY_URL": "https://auth.herald.test"}


@pytest.mark.parametrize("rp_id, refused_because", [
    ("evil.example", "registrable suffix"),         # another site: browsers refuse the ceremony
    ("console.herald.test", "registrable suffix"),  # the console's host but not the identity server's
    ("test", "public suffix"),                      # a suffix of both, but no one registers under it alone
    ("127.0.0.1", "IP address"),                    # WebAuthn takes domain names only
])
def test_a_passkey_rp_id_outside_the_console_and_identity_hosts_stops_the_start(rp_id, refused_because):
    with pytest.raises(ConfigError) as caught:
        load_settings({**PASSKEY_HOSTS, "WEBAUTHN_RP_ID": rp_id})
    message = str(caught.value)
    assert caught.value.variable == "WEBAUTHN_RP_ID" and message.startswith("WEBAUTHN_RP_ID: ")
    assert refused_because in message and "\n" not in message
    assert "console.herald.test" in message and "auth.herald.test" in message  # the hosts it was checked against


def test_a_passkey_rp_id_may_be_the_shared_parent_or_localhost_in_development():
    assert load_settings({**PASSKEY_HOSTS, "WEBAUTHN_RP_ID": "Herald.Test."}).webauthn_rp_id == "herald.test"
    assert load_settings({**GOOD, "CONSOLE_URL": "https://auth.herald.test", "IDENTITY_URL": "https://auth.herald.test",
                          "WEBAUTHN_RP_ID": "auth.herald.test"}).webauthn_rp_id == "auth.herald.test"
    local = {**GOOD, "CONSOLE_URL": "http://localhost:8005", "IDENTITY_URL": "http://localhost:8001"}
    assert load_settings({**local, "WEBAUTHN_RP_ID": "localhost"}).webauthn_rp_id == "localhost"
    assert load_settings(GOOD).webauthn_rp_id is None  # unset: the identity server's host (127.0.0.1 by default)
