"""The OpenID Provider metadata (discovery document) of the identity server."""

from __future__ import annotations

from app.identity.oauth.service import SCOPES


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
