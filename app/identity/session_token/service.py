"""The dashboard's session token: a JWT that names a session, signed RS256 with the active key.

The platform's ``/api`` surface answers a login with ``Token`` typed as a JWT. The identity server
signs one per session (``POST /v1/auth/session-token``, :func:`issue`) with claims ``iss`` (this
server), ``sub`` (the user), ``sid`` (the session), ``aud`` :data:`AUDIENCE`, ``iat`` and ``exp``
(the session's absolute end), and header ``typ`` :data:`TYP`, so an OAuth access or ID token is
never read as one (they carry ``at+jwt`` / ``JWT``).

The signature alone never admits anyone: :func:`session_of_jwt` reads the session named by
``sid`` on every use, exactly as the opaque token is read, so logout, ``DELETE
/v1/auth/sessions/{id}`` and a password reset stop the JWT on the very next request.
"""

from __future__ import annotations

from datetime import datetime

import jwt

from app.identity import errors
from app.identity.session.service import live_session, session_with_user
from app.identity.signing_key import service as keys
from models.identity import Session

AUDIENCE = "herald-dashboard"
TYP = "session+jwt"


def looks_like_jwt(token: str | None) -> bool:
    return bool(token) and token.count(".") == 2 and not token.startswith("hst_")


async def issue(session: Session, issuer: str) -> tuple[str, datetime]:
    """The JWT of ``session`` (its user loaded) and when it ends."""
    claims = {"iss": issuer, "sub": session.user.public_id, "sid": session.public_id, "aud": AUDIENCE,
              "iat": int(session.created_at.timestamp()), "exp": int(session.expires_at.timestamp())}
    return await keys.sign(claims, typ=TYP), session.expires_at


async def session_of_jwt(token: str, issuer: str, *, touch: bool = True) -> Session:
    """The live session a dashboard JWT names (with its user); 401 ``InvalidToken`` for a token we
    did not sign for the dashboard, ``ExpiredToken`` for an ended session."""
    try:
        claims = await keys.verify(token, issuer=issuer, audience=AUDIENCE, typ=TYP)
    except jwt.ExpiredSignatureError:
        raise errors.ExpiredToken() from None
    except (jwt.InvalidTokenError, ValueError, KeyError, TypeError):
        raise errors.InvalidToken() from None
    sid, sub = claims.get("sid"), claims.get("sub")
    if not isinstance(sid, str) or not isinstance(sub, str):
        raise errors.InvalidToken()
    session = await session_with_user("public_id", sid)
    if session is None or session.user.public_id != sub:
        raise errors.InvalidToken()
    return await live_session(session, touch=touch)
