"""Reading one configuration variable: each reader validates its value and, when it is missing
or malformed, raises :class:`ConfigError` naming the variable (kit/settings.py reads them all)."""

from __future__ import annotations

import functools
import ipaddress
import json
from typing import Mapping
from urllib.parse import urlsplit


class ConfigError(Exception):
    """A configuration variable is missing or malformed."""

    def __init__(self, variable: str, reason: str):
        super().__init__(f"{variable}: {reason}")
        self.variable = variable


def postgres_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("postgres", "postgresql") or not parts.hostname:
        raise ConfigError(name, "must be a postgres:// URL with a host, e.g. postgres://user@127.0.0.1:5432/db")
    if parts.scheme == "postgresql":
        value = "postgres" + value[len("postgresql"):]
    return value


def redis_url(name: str, value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise ConfigError(name, "must be a redis:// URL, e.g. redis://127.0.0.1:6379/0")
    return value


def http_url(name: str, value: str, example: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(name, f"must be an http(s) URL, e.g. {example}")
    return value.rstrip("/")


def whole_number(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(name, f"must be a whole number, got {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(name, f"must be between {low} and {high}, got {value}")
    return value


def outbox_systems(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated names of systems that have an outbox (kit/actors.py)."""
    from kit.actors import systems_with_outbox

    known = systems_with_outbox()
    found = tuple(item.strip() for item in (env.get(name) or "").split(",") if item.strip())
    unknown = [item for item in found if item not in known]
    if unknown:
        raise ConfigError(name, f"{', '.join(unknown)}: not a system with an outbox ({', '.join(known)})")
    return found


def origins(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated origins, each an http(s) scheme and host (and port), nothing after them."""
    found = []
    for item in (env.get(name) or "").split(","):
        item = item.strip().rstrip("/")
        if not item:
            continue
        parts = urlsplit(item)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
            raise ConfigError(name, f"{item!r} is not an origin such as https://app.example.com")
        found.append(f"{parts.scheme}://{parts.netloc}".lower())
    return tuple(found)


def flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw not in ("1", "true", "yes", "0", "false", "no"):
        raise ConfigError(name, f"must be 1 or 0 (true or false), got {raw!r}")
    return raw in ("1", "true", "yes")


def json_object(env: Mapping[str, str], name: str) -> dict:
    raw = env.get(name)
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except ValueError:
        raise ConfigError(name, "must be a JSON object") from None
    if not isinstance(value, dict):
        raise ConfigError(name, "must be a JSON object")
    return value


def relying_party_id(name: str, value: str | None, hosts: Mapping[str, str]) -> str | None:
    """The passkeys' relying-party id: a registrable suffix of every host in ``hosts`` (what each is,
    e.g. "the console" -> its host): equal to the host or a parent domain of it, never a public
    suffix (``com``, ``co.uk``, ``github.io``: browsers refuse those) and never an IP address
    (WebAuthn takes domains only). ``localhost`` is allowed for hosts that are ``localhost``, as
    browsers allow it in development. Unset: None (the identity server's host is used)."""
    rp_id = (value or "").strip().lower().rstrip(".")
    if not rp_id:
        return None
    named = ", ".join(f"{what} {host}" for what, host in hosts.items())
    try:
        ipaddress.ip_address(rp_id.strip("[]"))
    except ValueError:
        pass
    else:
        raise ConfigError(name, f"{rp_id!r} is an IP address; WebAuthn takes a domain name ({named})")
    outside = [host for host in hosts.values() if host != rp_id and not host.endswith("." + rp_id)]
    if outside:
        raise ConfigError(name, f"{rp_id!r} must be a registrable suffix of the hosts people use passkeys on "
                                f"({named}): the host itself or a parent domain of it")
    if rp_id != "localhost" and _public_suffixes().is_public(rp_id):
        raise ConfigError(name, f"{rp_id!r} is a public suffix, which browsers refuse as a relying party; "
                                f"use a domain you register under it ({named})")
    return rp_id


@functools.lru_cache(maxsize=1)
def _public_suffixes():
    # Read only when WEBAUTHN_RP_ID is set: parsing the list takes about 0.1 s.
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()
