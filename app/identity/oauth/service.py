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
- The authorization request travels through the login form as a signed blob
  (:data:`REQUEST_TTL` seconds), so it cannot be altered.

Failures of the token endpoint raise :class:`app.identity.errors.OAuthError` (RFC 6749 codes).
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

import jwt
from tortoise.backends.base.client import BaseDBAsyncClient

from app.identity import tokens
from app.identity.errors import OAuthError, RefreshTokenReused
from app.identity.session.service import is_live
from app.identity.signing_key import service as keys
from kit.sealing import IDENTITY, SignatureExpired
from models.identity import AuthorizationCode, OAuthClient, RefreshToken, Session, User

CODE_TTL = 60
ACCESS_TTL = 600
ID_TTL = 600
SCOPES = ("openid", "profile", "email")
VERIFIER = re.compile(r"^[A-Za-z0-9\-._~]{43,128}$")
CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")
REQUEST_PURPOSE = "authorize-request"
REQUEST_TTL = 900


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
        code_hash=tokens.digest(code), client=client, user=user, session=session, redirect_uri=redirect_uri,
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
    refresh = tokens.new_token("hrt_")
    await RefreshToken.create(token_hash=tokens.digest(refresh), family=family or tokens.public_id("rtf"),
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


# -- /authorize ------------------------------------------------------------------------------------

async def client_for(client_id: str | None, redirect_uri: str | None) -> OAuthClient | None:
    """The client, when ``redirect_uri`` is exactly one it registered; None otherwise."""
    client = await OAuthClient.get_or_none(client_id=client_id) if client_id else None
    if client is None or redirect_uri not in client.redirect_uris:
        return None
    return client


def seal_request(client: OAuthClient, *, redirect_uri: str, scope: str | None, state: str | None,
                 nonce: str | None, code_challenge: str) -> str:
    """The authorization request as a signed blob for the login form."""
    return IDENTITY.sign(REQUEST_PURPOSE, {
        "client_id": client.client_id, "redirect_uri": redirect_uri, "scope": clean_scope(scope),
        "state": state, "nonce": nonce, "code_challenge": code_challenge,
    }, REQUEST_TTL)


def open_request(blob: str) -> dict | None:
    """The authorization request of a login form; None when altered or expired. A signed blob is
    base64url text: anything else cannot be one (and the signature check compares ASCII only)."""
    if not blob.isascii():
        return None
    try:
        return IDENTITY.unsign(REQUEST_PURPOSE, blob)
    except SignatureExpired:
        return None


# -- /token ----------------------------------------------------------------------------------------

async def token_client(client_id: str) -> OAuthClient:
    client = await OAuthClient.get_or_none(client_id=client_id)
    if client is None:
        raise OAuthError("invalid_client", "unknown client_id", status=401)
    return client


async def claim_code(conn: BaseDBAsyncClient, client: OAuthClient, code: str) -> tuple[AuthorizationCode, int | None]:
    """The code's row, marked used; with the id of its session when it had been used already
    (someone else may hold it: the caller revokes that session)."""
    row = await AuthorizationCode.filter(code_hash=tokens.digest(code)).using_db(conn).select_for_update().first()
    if row is None or row.client_id != client.id:
        raise OAuthError("invalid_grant", "the code is not valid")
    if row.used_at is not None:
        return row, row.session_id
    await AuthorizationCode.filter(id=row.id).using_db(conn).update(used_at=datetime.now(timezone.utc))
    return row, None


async def check_code(row: AuthorizationCode, *, redirect_uri: str | None,
                     code_verifier: str | None) -> tuple[Session, User]:
    """The session and user of a code just claimed, once its life, redirect URI and PKCE verifier
    check out and its session is still live."""
    if row.expires_at <= datetime.now(timezone.utc):
        raise OAuthError("invalid_grant", "the code has expired")
    if redirect_uri != row.redirect_uri:
        raise OAuthError("invalid_grant", "redirect_uri does not match the authorization request")
    if not pkce_ok(code_verifier, row.code_challenge):
        raise OAuthError("invalid_grant", "code_verifier does not match the code_challenge")
    session = await Session.get(id=row.session_id)
    if not is_live(session):
        raise OAuthError("invalid_grant", "the session of this code has ended")
    return session, await User.get(id=row.user_id)


async def refresh(conn: BaseDBAsyncClient, *, issuer: str, client: OAuthClient, presented: str,
                  scope: str | None) -> dict:
    """A new token set for a refresh token, which is used up (rotation). A used one presented
    again raises :class:`RefreshTokenReused` (the caller revokes its family)."""
    now = datetime.now(timezone.utc)
    row = await RefreshToken.filter(token_hash=tokens.digest(presented)).using_db(conn).select_for_update().first()
    if row is None or row.client_id != client.id:
        raise OAuthError("invalid_grant", "the refresh token is not valid")
    if row.used_at is not None and row.revoked_at is None:
        raise RefreshTokenReused(row.family)
    if row.revoked_at is None and row.expires_at > now:
        session = await Session.get(id=row.session_id).using_db(conn)
        if is_live(session, now):
            granted = row.scope
            if scope:
                if not set(scope.split()) <= set(row.scope.split()):
                    raise OAuthError("invalid_scope", "the scope exceeds the original grant")
                granted = " ".join(s for s in row.scope.split() if s in scope.split())
            await RefreshToken.filter(id=row.id).using_db(conn).update(used_at=now)
            user = await User.get(id=row.user_id).using_db(conn)
            return await token_set(conn, issuer=issuer, client=client, user=user, session=session,
                                   scope=granted, nonce=None, family=row.family)
    raise OAuthError("invalid_grant", "the refresh token has expired or was revoked")


async def revoke_family(conn: BaseDBAsyncClient, family: str) -> None:
    await RefreshToken.filter(family=family, revoked_at=None).using_db(conn).update(
        revoked_at=datetime.now(timezone.utc))


# -- /userinfo and /logout -------------------------------------------------------------------------

async def access_session(token: str, *, issuer: str) -> tuple[dict, Session]:
    """The claims of an access token and its live session (with the user); raises
    ``jwt.InvalidTokenError`` (``jwt.ExpiredSignatureError`` past its life) otherwise."""
    claims = await keys.verify(token, issuer=issuer, typ="at+jwt")
    session = await Session.get_or_none(public_id=claims.get("sid")).select_related("user")
    if session is None or not is_live(session) or session.user.public_id != claims["sub"]:
        raise jwt.InvalidTokenError("the session of this token has ended")
    return claims, session


async def id_token_logout(hint: str, *, issuer: str, post_logout_redirect_uri: str | None,
                          state: str | None) -> tuple[Session, str | None]:
    """The session an ID token (expired or not) names, and where to send the browser afterwards:
    ``post_logout_redirect_uri`` when the token's client registered it exactly, else None."""
    claims = await keys.verify(hint, issuer=issuer, verify_exp=False)
    client = await OAuthClient.get_or_none(client_id=claims.get("aud"))
    back = None
    if post_logout_redirect_uri and client is not None \
            and post_logout_redirect_uri in client.post_logout_redirect_uris:
        back = with_query(post_logout_redirect_uri, {"state": state})
    session = await Session.get_or_none(public_id=claims.get("sid"))
    if session is None:
        raise jwt.InvalidTokenError("unknown session")
    return session, back
