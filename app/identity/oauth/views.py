"""The OpenID Provider metadata (discovery document) of the identity server."""

from __future__ import annotations

from app.http.openapi import STRING, Schema, shape
from app.identity.oauth.service import SCOPES

STRINGS = {"type": "array", "items": STRING}
# The answers of the OAuth endpoints, as their views make them (app/http/openapi.py reads them).
DISCOVERY = shape(
    issuer=STRING, authorization_endpoint=STRING, token_endpoint=STRING, userinfo_endpoint=STRING, jwks_uri=STRING,
    end_session_endpoint=STRING, scopes_supported=STRINGS, response_types_supported=STRINGS,
    response_modes_supported=STRINGS, grant_types_supported=STRINGS, code_challenge_methods_supported=STRINGS,
    subject_types_supported=STRINGS, id_token_signing_alg_values_supported=STRINGS,
    token_endpoint_auth_methods_supported=STRINGS, claims_supported=STRINGS,
    authorization_response_iss_parameter_supported={"type": "boolean"})
JWK = shape("use", "alg", "kid", kty=STRING, use=STRING, alg=STRING, kid=STRING, n=STRING, e=STRING)
JWKS = Schema(shape(keys={"type": "array", "items": JWK}), example={"keys": [{
    "kty": "RSA", "use": "sig", "alg": "RS256", "kid": "key_8f14e45fceea167a", "n": "0vx7agoebGcQSuu...", "e": "AQAB"}]})
TOKEN = Schema(shape("refresh_token", "id_token", access_token=STRING, token_type={"const": "Bearer"},
                     expires_in={"type": "integer"}, refresh_token=STRING, scope=STRING, id_token=STRING),
               example={"access_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9...", "token_type": "Bearer",
                        "expires_in": 900, "refresh_token": "hrt_8f14e45fceea167a5a36dedd",
                        "scope": "openid email profile", "id_token": "eyJhbGciOiJSUzI1NiJ9..."})
USERINFO = shape("name", sub=STRING, email=STRING, email_verified={"type": "boolean"},
                 name={"type": ["string", "null"]})
LOGGED_OUT = shape(logged_out={"const": True}, RequestId=STRING)
# RFC 6749 §5.2 and RFC 6750 §3: the OAuth endpoints' own errors (not the error envelope).
OAUTH_ERROR = Schema(shape("error_description", error=STRING, error_description=STRING),
                     example={"error": "invalid_grant", "error_description": "the code was already used"})


def discovery(base: str) -> dict:
    return {
        "issuer": base,
        "authorization_endpoint": f"{base}/authorize",
        "token_endpoint": f"{base}/token",
        "userinfo_endpoint": f"{base}/userinfo",
        "jwks_uri": f"{base}/.well-known/jwks.json",
        "end_session_endpoint": f"{base}/logout",
        "scopes_supported": list(SCOPES),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "claims_supported": ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "sid", "email",
                             "email_verified", "name"],
        "authorization_response_iss_parameter_supported": True,
    }


def userinfo(user) -> dict:
    return {"sub": user.public_id, "email": user.email, "email_verified": user.email_verified_at is not None,
            "name": user.name}
