"""The OpenID Provider metadata (discovery document) of the identity server."""

from __future__ import annotations

from app.http.openapi import REQUEST_ID, STRING, Schema, described, shape
from app.identity.oauth.service import SCOPES

STRINGS = {"type": "array", "items": STRING}
BOOLEAN = {"type": "boolean"}
# The answers of the OAuth endpoints, as their views make them (app/http/openapi.py reads them).
DISCOVERY = shape(
    issuer=described(STRING, "This server's issuer URL, the iss of every token it signs."),
    authorization_endpoint=described(STRING, "The URL of /authorize, where the sign-in starts."),
    token_endpoint=described(STRING, "The URL of /token, which exchanges a code or a refresh token for tokens."),
    userinfo_endpoint=described(STRING, "The URL of /userinfo, the signed-in person's claims."),
    jwks_uri=described(STRING, "The URL of the public keys that verify this server's tokens."),
    end_session_endpoint=described(STRING, "The URL of /logout, which ends a session."),
    scopes_supported=described(STRINGS, "The scopes a client may ask for: openid, profile and email."),
    response_types_supported=described(STRINGS, "Always [code]: the authorization code flow only."),
    response_modes_supported=described(STRINGS, "Always [query]: the code comes back in the redirect's query."),
    grant_types_supported=described(STRINGS, "authorization_code and refresh_token."),
    code_challenge_methods_supported=described(STRINGS, "Always [S256]: PKCE with a SHA-256 challenge."),
    subject_types_supported=described(STRINGS, "Always [public]: a person's sub is the same for every client."),
    id_token_signing_alg_values_supported=described(STRINGS, "Always [RS256]: how ID tokens are signed."),
    token_endpoint_auth_methods_supported=described(
        STRINGS, "Always [none]: clients are public and prove the code with PKCE, not a secret."),
    claims_supported=described(STRINGS, "The claims this server's ID tokens and /userinfo may carry."),
    authorization_response_iss_parameter_supported=described(
        BOOLEAN, "Always true: the redirect back to the client carries iss (RFC 9207)."))
JWK = shape(
    "use", "alg", "kid",
    kty=described(STRING, "The key type: RSA."),
    use=described(STRING, "What the key is for: sig (signatures)."),
    alg=described(STRING, "The algorithm the key signs with: RS256."),
    kid=described(STRING, "The key's id, the kid in the header of the tokens it signed."),
    n=described(STRING, "The RSA modulus, base64url."),
    e=described(STRING, "The RSA public exponent, base64url."))
JWKS = Schema(shape(keys=described({"type": "array", "items": JWK}, "The published signing keys: the active "
                                   "one and those retired recently, which still verify.")),
              example={"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": "key_8f14e45fceea167a",
                                 "n": "0vx7agoebGcQSuu...", "e": "AQAB"}]})
TOKEN = Schema(shape(
    "refresh_token", "id_token",
    access_token=described(STRING, "The access token: an RS256 JWT (typ at+jwt) for /userinfo and the APIs."),
    token_type=described({"const": "Bearer"}, "Always Bearer."),
    expires_in=described({"type": "integer"}, "Seconds until the access token expires."),
    refresh_token=described(STRING, "A single-use refresh token (hrt_...) for the next token set."),
    scope=described(STRING, "The scopes granted, space-separated."),
    id_token=described(STRING, "The ID token (RS256 JWT), when the openid scope was granted.")),
    example={"access_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCJ9...", "token_type": "Bearer",
             "expires_in": 600, "refresh_token": "hrt_8f14e45fceea167a5a36dedd",
             "scope": "openid email profile", "id_token": "eyJhbGciOiJSUzI1NiJ9..."})
USERINFO = shape(
    "name",
    sub=described(STRING, "The person's id (usr_...), the sub of their tokens."),
    email=described(STRING, "The person's e-mail address."),
    email_verified=described(BOOLEAN, "Whether the person has confirmed that e-mail address."),
    name=described({"type": ["string", "null"]}, "The person's name, or null when they gave none."))
LOGGED_OUT = shape(logged_out=described({"const": True}, "Always true: the session is ended."), RequestId=REQUEST_ID)
# RFC 6749 §5.2 and RFC 6750 §3: the OAuth endpoints' own errors (not the error envelope).
OAUTH_ERROR = Schema(shape(
    "error_description",
    error=described(STRING, "The OAuth error code (RFC 6749 5.2, RFC 6750 3.1): invalid_request, invalid_client, "
                            "invalid_grant, unsupported_grant_type, invalid_scope or invalid_token."),
    error_description=described(STRING, "What was wrong, in English.")),
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
