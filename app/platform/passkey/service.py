"""Passkey login through the identity server's ceremony (``/v1/passkeys/login/options`` and
``/v1/passkeys/login``), ending, like a password login, with the session's dashboard JWT.

The identity server checks the assertion's origin and RP id against its relying party (its own
origin and the platform's); the platform refuses earlier a browser origin that is not one of the
dashboard's (PLATFORM_URL, DASHBOARD_ORIGINS). An expired or used challenge is 401
``DesafioExpirado``; a refused assertion 401 ``PasskeyRecusada``. The identity server unreachable,
timing out or failing (or its breaker open) is 503 ``PasskeyIndisponivel`` with Retry-After: the
person can sign in with the password meanwhile.
"""

from __future__ import annotations

from app.http import errors
from app.http.services import ServiceClient
from app.platform.session.errors import IdentityRefusal, PasskeyUnavailable
from app.platform.session.service import Caller, SignedIn, call, signed_in


async def start(client: ServiceClient, caller: Caller, email: str | None) -> tuple[str, dict]:
    body = await call(client, caller, "POST", "/v1/passkeys/login/options", json={"email": email},
                      outage=PasskeyUnavailable)
    challenge_id, options = body.get("challenge_id"), body.get("options")
    if not isinstance(challenge_id, str) or not isinstance(options, dict):
        raise errors.UpstreamError()
    return challenge_id, options


async def finish(client: ServiceClient, caller: Caller, challenge_id: str, credential: dict) -> SignedIn:
    try:
        opened = await call(client, caller, "POST", "/v1/passkeys/login",
                            json={"challenge_id": challenge_id, "credential": credential}, outage=PasskeyUnavailable)
    except IdentityRefusal as exc:
        if exc.code == "DesafioExpirado":
            raise IdentityRefusal(401, "DesafioExpirado", exc.message) from None
        raise
    return await signed_in(client, caller, opened)
