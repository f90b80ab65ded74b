"""Telling the identity server that a staff session entered or left an account (docs/operator.md).

The identity server owns authorization decisions; the other systems ask it, not the platform.
So when a support session opens, the staff member's identity session gets a *seat*
(``POST /internal/v1/support-seats``): every system then sees the session is inside a support
session on its session hop, refuses its writes and reads only the entered account
(app/http/support_access.py). Both calls are made inside the platform's transaction, before it
commits, and fail closed: the identity server away, the support session neither opens nor ends
(503), so no system ever treats a support session as an ordinary session.
"""

from __future__ import annotations

import logging

from app.http import errors
from app.http.services import ServiceClient
from models.platform.support_session import SupportSession

log = logging.getLogger("herald.support")


def _unavailable() -> errors.ServiceUnavailable:
    return errors.ServiceUnavailable("Support sessions cannot be opened or ended right now; try again shortly.",
                                     retry_after=5)


async def seat(identity: ServiceClient, support: SupportSession, session_id: str, tenant_id: str,
               seconds: int) -> None:
    answer = await identity.post("/internal/v1/support-seats", outage=errors.ServiceUnavailable, json={
        "support_id": support.public_id, "session_id": session_id, "tenant": tenant_id, "expires_in_seconds": seconds})
    if answer.status == 404:
        raise errors.AuthorizationError("The session is not valid or has ended.")
    if answer.status != 201:
        log.error("identity answered a support seat with %s %s", answer.status, answer.error_code)
        raise _unavailable()


async def unseat(identity: ServiceClient, support_id: str) -> None:
    answer = await identity.post(f"/internal/v1/support-seats/{support_id}/end", outage=errors.ServiceUnavailable)
    if answer.status != 204:
        log.error("identity answered the end of a support seat with %s %s", answer.status, answer.error_code)
        raise _unavailable()
