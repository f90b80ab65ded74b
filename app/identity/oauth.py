"""OAuth 2.1 / OIDC building blocks: PKCE, codes, token sets, refresh rotation.

- Authorization codes: 43 random characters, SHA-256 stored, single use, :data:`CODE_TTL`
  seconds, bound to client, redirect URI and the S256 challenge. A code presented twice revokes
  the session it was issued in, and with it every token issued from it.
- Access tokens: RS256 JWT (``typ`` ``at+jwt``), :data:`ACCESS_TTL` seconds, claims ``iss``,
  ``sub``, ``aud`` (client id), ``client_id``, ``scope``, ``sid``, ``jti``, ``iat``, ``exp``.
- ID tokens: RS256 JWT, :data:`ID_TTL` seconds, with ``nonce``, ``at_hash``, ``auth_time``,
  ``sid``, ``azp`` and ``email``/``email_verified``/``name``.
- Refresh tokens: opaque (``hrt_`` + 43 characters), SHA-256 stored, rotated on every use; a
  used one presented again revokes its whole family. They live as long as the session they
  belong to (idle and absolute), so revoking the session ends them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from datetime import datetime, timedelta, timezone
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import crypto, keys
from models.identity import AuthorizationCode, OAuthClient, RefreshToken, Session, User

CODE_TTL = 60
ACCESS_TTL = 600
ID_TTL = 600
SCOPES = ("openid", "profile", "email")
VERIFIER = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")
CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")


class OAuthError(Exception):
    def __init__(self, error: str, description: str, status: int = 400):
        super().__init__(description)
        self.error, self.description, self.status = error, description, status


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode("ascii")).digest()).rstrip(b"=").decode()


def pkce_ok(verifier: str | None, challenge: str) -> bool:
    return bool(verifier and VERIFIER.fullmatch(verifier) and hmac.compare_digest(s256(verifier), challenge))


def with_query(uri: str, params: dict[str, str | None]) -> str:
    parts = urlsplit(uri)
    query = parse_qsl(parts.query, keep_blank_values=True) + [(k, v) for k, v in params.items() if v is not None]
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))


def clean_scope(scope: str | None) -> str:
    asked = (scope or "").split()
    return " ".join(s for s in SCOPES if s in asked)


def valid_redirect_uri(uri: str) -> bool:
    parts = urlsplit(uri)
    if parts.fragment or not parts.netloc:
        return False
    if parts.scheme == "https":
        return True
    return parts.scheme == "http" and parts.hostname in ("localhost", "127.0.0.1", "::1")


async def issue_code(conn: BaseDBAsyncClient, *, client: OAuthClient, user: User, session: Session,
                     redirect_uri: str, scope: str, nonce: str | None, code_challenge: str) -> str:
    code = secrets.token_urlsafe(32)
    await AuthorizationCode.create(
        code_hash=crypto.digest(code), client=client, user=user, session=session, redirect_uri=redirect_uri,
        scope=scope, nonce=nonce, code_challenge=code_challenge,
        expires_at=datetime.now(timezone.utc) + timedelta(seconds=CODE_TTL), using_db=conn)
    return code


def _at_hash(access_token: str) -> str:
    digest = hashlib.sha256(access_token.encode()).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode()


async def token_set(conn: BaseDBAsyncClient, *, issuer: str, client: OAuthClient, user: User, session: Session,
                    scope: str, nonce: str | None, family: str | None = None) -> dict:
    now = int(time.time())
    access = await keys.sign({
        "iss": issuer, "sub": user.public_id, "aud": client.client_id, "client_id": client.client_id,
        "scope": scope, "sid": session.public_id, "jti": secrets.token_hex(12), "iat": now, "exp": now + ACCESS_TTL,
    }, typ="at+jwt")
    refresh = crypto.new_token("hrt_")
    await RefreshToken.create(token_hash=crypto.digest(refresh), family=family or crypto.public_id("rtf"),
                              client=client, user=user, session=session, scope=scope,
                              expires_at=session.expires_at, using_db=conn)
    answer = {"access_token": access, "token_type": "Bearer", "expires_in": ACCESS_TTL, "refresh_token": refresh,
              "scope": scope}
    if "openid" in scope.split():
        claims = {
            "iss": issuer, "sub": user.public_id, "aud": client.client_id, "azp": client.client_id, "iat": now,
            "exp": now + ID_TTL, "auth_time": int(session.created_at.timestamp()), "sid": session.public_id,
            "at_hash": _at_hash(access),
        }
        if nonce:
            claims["nonce"] = nonce
        if "email" in scope.split():
            claims.update(email=user.email, email_verified=user.email_verified_at is not None)
        if "profile" in scope.split():
            claims["name"] = user.name
        answer["id_token"] = await keys.sign(claims)
    return answer
