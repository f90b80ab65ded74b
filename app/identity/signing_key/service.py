"""RS256 signing keys: one active key signs, retired keys keep verifying and stay in the JWKS.

Private keys are stored encrypted (AES-256-GCM, key derived from SECRET_KEY by HKDF). The first
key is created at start when none exists; ``rotate`` (``POST /v1/auth/keys/rotate``) adds a new
active key and retires the old one. Retired keys stay published for :data:`RETIRED_PUBLISHED`,
longer than any token they signed can live, then drop out of the JWKS and stop verifying.

:func:`ensure_active_key` opens its own transaction (under an advisory lock): it is the start-up
preparation of server.py, run again on first use when the database was away at start.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta, timezone
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import db
from kit.sealing import IDENTITY
from models.identity import KeyStatus, SigningKey

PURPOSE = "signing-key"
RETIRED_PUBLISHED = timedelta(days=2)
_LOCK = 0x4845524B  # advisory lock id for key creation/rotation
_private_cache: dict[str, Any] = {}


def _new_key_row() -> dict[str, Any]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    kid = secrets.token_hex(8)
    jwk = jwt.algorithms.RSAAlgorithm.to_jwk(private.public_key(), as_dict=True)
    jwk.update({"kid": kid, "use": "sig", "alg": "RS256"})
    return {"kid": kid, "private_key_enc": IDENTITY.seal(PURPOSE, pem), "public_jwk": jwk}


async def ensure_active_key() -> None:
    if await SigningKey.filter(status=KeyStatus.ACTIVE).exists():
        return
    async with db.transaction() as conn:
        await conn.execute_query("SELECT pg_advisory_xact_lock($1)", [_LOCK])
        if not await SigningKey.filter(status=KeyStatus.ACTIVE).using_db(conn).exists():
            await SigningKey.create(**_new_key_row(), status=KeyStatus.ACTIVE, using_db=conn)


async def rotate(conn: BaseDBAsyncClient) -> SigningKey:
    """A new active key in the transaction ``conn``; the active one retires."""
    row = _new_key_row()
    await conn.execute_query("SELECT pg_advisory_xact_lock($1)", [_LOCK])
    await SigningKey.filter(status=KeyStatus.ACTIVE).using_db(conn).update(
        status=KeyStatus.RETIRED, retired_at=datetime.now(timezone.utc))
    return await SigningKey.create(**row, status=KeyStatus.ACTIVE, using_db=conn)


# The key a token names, while it verifies: the active one, or one retired less than RETIRED_PUBLISHED ago.
VERIFYING_KEY_SQL = (f"SELECT public_jwk FROM signing_keys WHERE kid = $1 "
                     f"AND (status = '{KeyStatus.ACTIVE.value}' OR retired_at > $2)")
_public_cache: dict[str, Any] = {}


def _public(jwk: str | dict) -> Any:
    """The public key of a JWK, parsed once per JWK (parsing an RSA key costs more than verifying
    with it); keyed by the JWK's own text, so a changed row is parsed anew."""
    text = jwk if isinstance(jwk, str) else json.dumps(jwk, sort_keys=True)
    key = _public_cache.get(text)
    if key is None:
        key = _public_cache[text] = jwt.PyJWK.from_dict(json.loads(text)).key
    return key


def _private(key: SigningKey):
    if key.kid not in _private_cache:
        pem = IDENTITY.unseal(PURPOSE, key.private_key_enc)
        _private_cache[key.kid] = serialization.load_pem_private_key(pem, password=None)
    return _private_cache[key.kid]


async def sign(claims: dict[str, Any], *, typ: str = "JWT") -> str:
    key = await SigningKey.filter(status=KeyStatus.ACTIVE).order_by("-id").first()
    if key is None:
        await ensure_active_key()
        key = await SigningKey.filter(status=KeyStatus.ACTIVE).order_by("-id").first()
    return jwt.encode(claims, _private(key), algorithm="RS256", headers={"kid": key.kid, "typ": typ})


async def published() -> list[SigningKey]:
    cutoff = datetime.now(timezone.utc) - RETIRED_PUBLISHED
    keys = await SigningKey.all().order_by("-id")
    return [k for k in keys if k.status == KeyStatus.ACTIVE or (k.retired_at and k.retired_at > cutoff)]


async def jwks() -> dict[str, Any]:
    keys = await published()
    if not any(key.status == KeyStatus.ACTIVE for key in keys):  # the database was away at start
        await ensure_active_key()
        keys = await published()
    return {"keys": [key.public_jwk for key in keys]}


async def verify(token: str, *, issuer: str, audience: str | None = None, typ: str | None = None,
                 verify_exp: bool = True) -> dict[str, Any]:
    """The claims of a token we signed; raises ``jwt.InvalidTokenError`` otherwise."""
    header = jwt.get_unverified_header(token)
    if header.get("alg") != "RS256":
        raise jwt.InvalidAlgorithmError("only RS256")
    if typ is not None and header.get("typ") != typ:
        raise jwt.InvalidTokenError("wrong token type")
    kid = header.get("kid")
    if not isinstance(kid, str):
        raise jwt.InvalidKeyError("unknown kid")
    # Read on every token (a key past its retirement stops verifying at once): the one row, in one
    # plain query, rather than every published key through the ORM.
    cutoff = datetime.now(timezone.utc) - RETIRED_PUBLISHED
    _, rows = await db.connection().execute_query(VERIFYING_KEY_SQL, [kid, cutoff])
    if not rows:
        raise jwt.InvalidKeyError("unknown kid")
    public = _public(rows[0]["public_jwk"])
    options = {"require": ["exp", "iat", "iss", "sub"], "verify_exp": verify_exp, "verify_aud": audience is not None}
    return jwt.decode(token, public, algorithms=["RS256"], issuer=issuer, audience=audience, options=options,
                      leeway=5)
