"""Pixels: an account's tracking script for one site, and the signed credential it carries.

The credential is what ``/collect`` and ``/replay`` check without touching the database: a compact
HMAC-SHA256 token under a key derived from SECRET_KEY (kit/sealing.py, system ``runtime``, purpose
``pixel-credential``) over ``{pixel, tenant, site, key version}``. It names the site, so an event is
accepted only from that host or its subdomains. Rotating bumps the key version; the runtime keeps the
current version of each pixel in Redis (:data:`models.runtime.stream.PIXEL_VERSIONS`) so the edge
refuses a rotated credential at once, and the stream consumer checks it again against this table
(the authoritative copy) before anything is written. Nothing here expires on its own.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import re
from dataclasses import dataclass

from tortoise import fields
from tortoise.models import Model

from kit.sealing import Sealer, b64url, unb64url
from kit.ids import public_id

SEALER = Sealer("runtime")
PURPOSE = "pixel-credential"
PREFIX = "pxl"
CREDENTIAL_PREFIX = "pk1"
# A host name as a browser sends it in Origin (lower case, no port): labels of letters, digits, hyphens.
HOST = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")


def new_pixel_id() -> str:
    return public_id(PREFIX)


class Pixel(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    name = fields.CharField(max_length=200)
    site = fields.CharField(max_length=253)
    replay = fields.BooleanField(default=False)
    enabled = fields.BooleanField(default=True)
    key_version = fields.IntField(default=1)
    created_at = fields.DatetimeField(auto_now_add=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "pixels"
        app = "runtime"
        indexes = (("tenant", "created_at"),)


@dataclass(frozen=True)
class Credential:
    """What a valid credential names."""

    pixel_id: str
    tenant: str
    site: str
    version: int
    replay: bool

    def allows_host(self, host: str) -> bool:
        """The site itself or any of its subdomains."""
        host = host.lower().rstrip(".")
        return host == self.site or host.endswith("." + self.site)


def _mac(body: str, key: bytes | None = None) -> str:
    return b64url(hmac.new(key or SEALER.key(PURPOSE), body.encode(), hashlib.sha256).digest())


def credential_of(pixel: Pixel) -> str:
    payload = {"p": pixel.public_id, "t": pixel.tenant, "s": pixel.site, "k": pixel.key_version, "r": pixel.replay}
    body = b64url(json.dumps(payload, separators=(",", ":"), sort_keys=True).encode())
    return f"{CREDENTIAL_PREFIX}.{body}.{_mac(body)}"


def open_credential(token: str | None) -> Credential | None:
    """The credential's claims, or ``None`` for anything not signed by us (constant-time compare)."""
    if not token or len(token) > 1024 or not token.isascii():
        return None  # ours is base64url: anything else is not (and compare_digest refuses non-ASCII text)
    return _opened(token)


@functools.lru_cache(maxsize=4096)
def _opened(token: str) -> Credential | None:
    # Remembered per process: a token's claims never change (a rotation bumps the version, which the
    # edge checks in Redis on every request), and the edge opens the same few tokens all day long.
    prefix, _, rest = token.partition(".")
    body, _, mac = rest.partition(".")
    if prefix != CREDENTIAL_PREFIX or not body or not mac:
        return None
    # Under any key of SECRET_KEY: one pasted into a site before a rotation works while its key is listed.
    if not any(hmac.compare_digest(_mac(body, key), mac) for key in SEALER.keys(PURPOSE)):
        return None
    try:
        claims = json.loads(unb64url(body))
        return Credential(pixel_id=str(claims["p"]), tenant=str(claims["t"]), site=str(claims["s"]),
                          version=int(claims["k"]), replay=bool(claims.get("r", False)))
    except (ValueError, KeyError, TypeError):
        return None


def version_mark(pixel: Pixel) -> str:
    """The value the Redis mirror keeps for a pixel: ``<key version>:<r|->`` (replay on or off), or
    ``off`` when the pixel is disabled."""
    return f"{pixel.key_version}:{'r' if pixel.replay else '-'}" if pixel.enabled else "off"

