"""An account's own providers (``provider_configs``, models/platform/provider_config.py): list, read,
set, remove. The rows are the ones ``herald provider set`` writes and the workers read: secrets
sealed with the same key and purpose (``PROVIDER_SECRETS``), settings in the clear.

Setting a provider replaces its settings; its secrets are write-only: a secret given replaces the
stored one, ``null`` removes it, one left out stays as it was (so a changed host does not need the
password typed again). Every field is checked against :mod:`app.platform.provider.catalog` (422
naming the field); hosts and URLs against the egress policy, without DNS. Every query names the
account: another account's provider is a missing one.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.platform.provider import credentials
from app.platform.provider.catalog import MANAGED_ELSEWHERE, FieldRule, Rules, rules_for
from kit import egress
from kit.sealing import PLATFORM
from models.platform.provider_config import PROVIDER_SECRETS, ProviderConfig

DEFAULT_SMTP_PORTS = {"starttls": 587, "tls": 465, "none": 25}
CHANNELS = ("email", "sms", "push", "whatsapp")


def _rules(channel: str, key: str) -> Rules:
    rules = rules_for(channel, key)
    if rules is None:
        elsewhere = MANAGED_ELSEWHERE.get((channel, key))
        raise errors.NotFound(f"{key!r} is not a {channel} provider an account sets here"
                              + (f": {elsewhere}." if elsewhere else "."))
    return rules


async def list_providers(conn: BaseDBAsyncClient, tenant_pk: int) -> list[ProviderConfig]:
    return await ProviderConfig.filter(tenant_id=tenant_pk).using_db(conn).order_by("channel", "key")


async def provider(conn: BaseDBAsyncClient, tenant_pk: int, channel: str, key: str) -> ProviderConfig:
    # A channel or key no row can hold (the columns are 10 and 64 characters) is not looked up.
    found = None
    if channel in CHANNELS and len(key) <= 64:
        found = await ProviderConfig.get_or_none(tenant_id=tenant_pk, channel=channel, key=key, using_db=conn)
    if found is None:
        raise errors.NotFound(f"This account has no {channel} provider {key!r}.")
    return found


def secret_names(row: ProviderConfig) -> list[str]:
    """The names of the secrets stored for ``row`` (their values never leave the row)."""
    return sorted(PLATFORM.unseal_json(PROVIDER_SECRETS, row.secrets))


async def set_provider(conn: BaseDBAsyncClient, tenant_pk: int, channel: str, key: str, settings: dict[str, Any],
                       secrets: dict[str, str | None], *, allow_loopback: bool) -> tuple[ProviderConfig, bool]:
    """Create or replace the account's configuration of ``key`` for ``channel``; (row, created).
    In the caller's transaction: the row is locked while its secrets are merged."""
    rules = _rules(channel, key)
    checked = _checked_settings(rules, settings, allow_loopback)
    row = await ProviderConfig.filter(tenant_id=tenant_pk, channel=channel, key=key).using_db(conn) \
        .select_for_update().first()
    stored = PLATFORM.unseal_json(PROVIDER_SECRETS, row.secrets) if row is not None else {}
    merged = _merged_secrets(rules, stored, secrets, allow_loopback)
    sealed = PLATFORM.seal_json(PROVIDER_SECRETS, merged) if merged else None
    if row is None:
        row = await ProviderConfig.create(tenant_id=tenant_pk, channel=channel, key=key, settings=checked,
                                          secrets=sealed, using_db=conn)
        return row, True
    row.settings, row.secrets = checked, sealed
    await row.save(using_db=conn)  # updated_at moves: for e-mail and SMS the newest row delivers
    return row, False


async def check_credentials(conn: BaseDBAsyncClient, tenant_pk: int, channel: str, key: str, settings: dict[str, Any],
                            secrets: dict[str, str | None], *, allow_loopback: bool) -> None:
    """Before :func:`set_provider`, outside its transaction: the configuration as it would be saved
    (the catalog's checks first, stored secrets merged) tried against the relay
    (app/platform/provider/credentials.py): 422 naming the field it refuses, 503 when it cannot say."""
    rules = _rules(channel, key)
    checked = _checked_settings(rules, settings, allow_loopback)
    row = await ProviderConfig.get_or_none(tenant_id=tenant_pk, channel=channel, key=key, using_db=conn)
    stored = PLATFORM.unseal_json(PROVIDER_SECRETS, row.secrets) if row is not None else {}
    merged = _merged_secrets(rules, stored, secrets, allow_loopback)
    await credentials.check(channel, key, {**checked, **merged}, allow_loopback=allow_loopback)


async def remove_provider(conn: BaseDBAsyncClient, tenant_pk: int, channel: str, key: str) -> None:
    """The account's configuration gone (its messages go to the platform's default again)."""
    _rules(channel, key)
    deleted = await ProviderConfig.filter(tenant_id=tenant_pk, channel=channel, key=key).using_db(conn).delete()
    if not deleted:
        raise errors.NotFound(f"This account has no {channel} provider {key!r}.")


def _refuse(section: str, name: str, reason: str) -> errors.Unprocessable:
    return errors.Unprocessable(f"{section}.{name} {reason}.", details={f"{section}.{name}": reason})


def _checked_settings(rules: Rules, settings: dict[str, Any], allow_loopback: bool) -> dict[str, Any]:
    unknown = sorted(set(settings) - set(rules.settings))
    if unknown:
        raise errors.Unprocessable(f"Unknown settings: {', '.join(unknown)} (known: {', '.join(rules.settings)}).",
                                   details={f"Settings.{name}": "unknown setting" for name in unknown})
    checked = {}
    for name, rule in rules.settings.items():
        value = settings.get(name)
        if value is None:
            if rule.required:
                raise _refuse("Settings", name, "is required")
            continue
        checked[name] = _value("Settings", name, rule, value, allow_loopback)
    if "host" in checked:  # SMTP: the host and the port it will be reached on, judged together
        policy = replace(egress.PROVIDERS.with_loopback(allow_loopback), ports=egress.SMTP_PORTS)
        port = int(checked.get("port") or DEFAULT_SMTP_PORTS[checked.get("security", "starttls")])
        problem = policy.host_problem(checked["host"]) or policy.port_problem(checked["host"], port)
        if problem:
            raise _refuse("Settings", "host" if "port" not in problem else "port", problem)
    return checked


def _merged_secrets(rules: Rules, stored: dict[str, Any], given: dict[str, str | None],
                    allow_loopback: bool) -> dict[str, Any]:
    unknown = sorted(set(given) - set(rules.secrets))
    if unknown:
        raise errors.Unprocessable(f"Unknown secrets: {', '.join(unknown)} (known: {', '.join(rules.secrets)}).",
                                   details={f"Secrets.{name}": "unknown secret" for name in unknown})
    merged = {name: value for name, value in stored.items() if name in rules.secrets}
    for name, value in given.items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = _value("Secrets", name, rules.secrets[name], value, allow_loopback)
    for name, rule in rules.secrets.items():
        if rule.required and not merged.get(name):
            raise _refuse("Secrets", name, "is required (and not stored yet)")
    if "service_account" in given and given["service_account"] is not None:
        _check_service_account(merged["service_account"], allow_loopback)
    return merged


def _value(section: str, name: str, rule: FieldRule, value: Any, allow_loopback: bool) -> Any:
    if rule.kind in ("port", "number"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _refuse(section, name, "must be a number")
        low, high = (1, 65535) if rule.kind == "port" else (rule.low, rule.high)
        if (rule.kind == "port" and not isinstance(value, int)) or not low <= value <= high:
            raise _refuse(section, name, f"must be {'an integer ' if rule.kind == 'port' else ''}from {low:g} to {high:g}")
        return value
    if not isinstance(value, str) or not value.strip():
        raise _refuse(section, name, "must be a non-empty string")
    if len(value) > rule.max_length:
        raise _refuse(section, name, f"must be at most {rule.max_length} characters")
    if rule.kind == "choice" and value not in rule.choices:
        raise _refuse(section, name, f"must be one of {', '.join(rule.choices)}")
    if rule.kind == "url":
        problem = egress.PROVIDERS.with_loopback(allow_loopback).url_problem(value)
        if problem:
            raise _refuse(section, name, problem)
    bare = value.strip("[]")
    if rule.kind == "host" and (any(char in value for char in "/@ ") or (":" in bare and egress.literal_address(bare) is None)):
        raise _refuse(section, name, "must be a host name or an address, without a scheme or a port")
    return value


def _check_service_account(text: str, allow_loopback: bool) -> None:
    """FCM's service account: a JSON object with what the worker needs; its ``token_uri`` is a URL
    the worker requests, so it is checked like a ``base_url``."""
    try:
        account = json.loads(text)
    except ValueError:
        raise _refuse("Secrets", "service_account", "must be the service account's JSON") from None
    if not isinstance(account, dict):
        raise _refuse("Secrets", "service_account", "must be a JSON object")
    missing = [name for name in ("project_id", "client_email", "private_key") if not account.get(name)]
    if missing:
        raise _refuse("Secrets", "service_account", f"needs {', '.join(missing)}")
    token_uri = account.get("token_uri")
    if token_uri is not None:
        problem = egress.PROVIDERS.with_loopback(allow_loopback).url_problem(str(token_uri))
        if problem:
            raise _refuse("Secrets", "service_account", f"token_uri {problem}")
