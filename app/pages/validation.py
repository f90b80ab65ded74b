"""Value rules the pages bodies share: slugs, host names, colours and the URLs a page may link to."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

SLUG = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?")
# Paths of the publishing runtime that a page or redirect slug would shadow (contract, section H).
RESERVED_SLUGS = frozenset({"r", "v1", "collect", "replay", "api", "internal", "healthz", "readyz", "version",
                            "metrics"})
_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")
COLOR = re.compile(r"#[0-9a-fA-F]{6}")


def slug(value: str) -> str:
    if not SLUG.fullmatch(value):
        raise ValueError("must be 1 to 100 lowercase letters, digits and inner hyphens")
    if value in RESERVED_SLUGS:
        raise ValueError(f"{value!r} is reserved by the publishing runtime")
    return value


def title(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("must not be blank")
    return value


def host(value: str) -> str:
    value = value.strip().rstrip(".").lower()
    if len(value) > 253 or not HOST.fullmatch(value) or value.split(".")[-1].isdigit():
        raise ValueError("must be a host name such as www.example.com")
    return value


def web_url(value: str, *, https_only: bool = False) -> str:
    """An absolute http(s) URL (https only when asked) with a host and no credentials."""
    if len(value) > 2048:
        raise ValueError("must be at most 2048 characters")
    try:
        parts = urlsplit(value)
        parts.port
    except ValueError:
        raise ValueError("must be a valid URL") from None
    schemes = ("https",) if https_only else ("http", "https")
    if parts.scheme not in schemes or not parts.hostname:
        raise ValueError("must be an " + " or ".join(f"{scheme}://" for scheme in schemes) + " URL")
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not carry credentials")
    if any(ord(char) < 33 for char in value):
        raise ValueError("must not contain spaces or control characters")
    return value


def link(value: str) -> str:
    """Where a button goes: an absolute http(s) URL, a path on the same site, or an anchor."""
    if value.startswith("/") and not value.startswith("//") or value.startswith("#"):
        if len(value) > 2048 or any(ord(char) < 33 for char in value):
            raise ValueError("must be a path or anchor without spaces, at most 2048 characters")
        return value
    return web_url(value)
