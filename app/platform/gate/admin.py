"""The /api/admin gate: every operator route passes here before its handler (docs/operator.md).

- The surface exists only for platform staff: a request without a live session, or with the
  session of someone not on the allowlist (tenant membership grants nothing here), answers 404
  ``NotFound`` on every path under /api/admin, routed or not, exactly like a path that does not
  exist. The session is proved the way the /api gate proves it (app/http/identity.py, checked
  with the identity server on every request), Bearer first, else the session cookie.
- A staff session must be proved with more than a password: opened with a passkey (possession and
  a verified user at once), or the staff member has a second factor (an authenticator app or
  e-mailed codes, as the identity server's ``GET /v1/2fa`` says, asked on every request like the
  session). Otherwise every /api/admin path answers 403 ``SecondFactorRequired`` (the identity
  server away: 502); the same person signed in with a passkey is let through.
  Entering an account and suspending one also need a recent re-authentication (403
  ``ReauthRequired``, app/platform/support/admin.py).
- The CSRF rule of the /api gate applies to writes (app/platform/gate/api.py).
- Inside a support session every write is refused with 403 ``ImpersonationReadOnly``, but the
  route that ends it (app/platform/support/service.py).

Handlers read the proved staff member with :func:`actor`.
"""

from __future__ import annotations

from sanic import Request, Sanic

from app.http import errors
from app.http.identity import SessionPrincipal, require_session
from app.http.services import services
from app.platform import db
from app.platform.errors import SecondFactorRequired
from app.platform.gate.api import allowed_origins, caller, check_origin
from app.platform.session.service import call
from app.platform.staff.service import Actor, staff_entry
from app.platform.support.service import refuse_writes_in_support_session

PREFIX = "/api/admin"


def is_admin(path: str) -> bool:
    return path == PREFIX or path.startswith(PREFIX + "/")


def actor(request: Request) -> Actor:
    """The staff member making the request (set by the gate)."""
    return request.ctx.actor


def _hidden() -> errors.NotFound:
    return errors.NotFound("Not found.")


async def require_second_factor(request: Request, session: SessionPrincipal) -> None:
    """403 ``SecondFactorRequired`` unless the session was opened with a passkey or the staff
    member's account has a second factor."""
    if session.method == "passkey":
        return
    state = await call(services(request.app).client("identity"), caller(request), "GET", "/v1/2fa",
                       user_token=session.token)
    if state.get("enabled") is not True:
        raise SecondFactorRequired()


def install(app: Sanic) -> None:
    origins = allowed_origins(app.ctx.settings)

    @app.on_request(priority=50)
    async def admin_gate(request: Request) -> None:
        if not is_admin(request.path):
            return
        try:
            session = await require_session(request)
        except errors.AuthorizationError:
            raise _hidden() from None
        entry = await staff_entry(db.connection(), session.user_id, session.email, session.email_verified)
        if entry is None:
            raise _hidden()
        await require_second_factor(request, session)
        if request.route is None:
            return  # Sanic answers 404/405 next, in the envelope
        check_origin(request, origins)
        request.ctx.actor = Actor(session.user_id, session.email)
        await refuse_writes_in_support_session(request)
