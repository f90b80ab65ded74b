"""The console's cookies: the session, the anonymous form key and the short-lived carriers.

- The session: the platform's dashboard token, in a cookie of the console's own, never
  ``herald_session`` (which the other systems accept as a session and which browsers send to
  every port of a host). ``__Host-herald_console`` whenever it can be Secure (an https console, and
  always in production); ``herald_console`` over plain http in development and tests. HttpOnly,
  SameSite=Lax, Path=/; a new value at every sign-in (the platform issues a new session each time).
- ``herald_console_anon``: a random key for the forms of a person not signed in (sign-in, sign-up,
  reset), so their CSRF tokens are bound to something the attacker's page cannot read.
- ``herald_console_carry_<kind>``: a sealed, short-lived value carried between two steps (the sign-in
  challenge ticket, a token taken out of the address bar), never shown in a page or a URL.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sanic import HTTPResponse, Request

from kit.sealing import SealError, Sealer

SEALER = Sealer("console")
ANON = "herald_console_anon"
CARRY = "herald_console_carry"
CARRY_SECONDS = 15 * 60
# A hint, not a credential: "this browser's person was platform staff when last asked", so that only
# they pay GET /api/admin/me on every page (the platform decides; a forged hint costs one 404).
STAFF_HINT = "herald_console_staff"


def secure(request: Request) -> bool:
    settings = request.app.ctx.settings
    return settings.env == "production" or settings.url_of("console").startswith("https://")


def session_name(request: Request) -> str:
    return "__Host-herald_console" if secure(request) else "herald_console"


def _set(request: Request, response: HTTPResponse, name: str, value: str, max_age: int | None) -> None:
    response.add_cookie(name, value, path="/", httponly=True, samesite="Lax", secure=secure(request),
                        max_age=max_age, host_prefix=False)


def _clear(request: Request, response: HTTPResponse, name: str) -> None:
    _set(request, response, name, "", 0)


def session_token(request: Request) -> str | None:
    value = request.cookies.get(session_name(request))
    return value or None


def set_session(request: Request, response: HTTPResponse, token: str, max_age: int | None) -> None:
    _set(request, response, session_name(request), token, max_age)
    _clear(request, response, f"{CARRY}_signin")


def clear_session(request: Request, response: HTTPResponse) -> None:
    _clear(request, response, session_name(request))


def anon_key(request: Request) -> str | None:
    value = request.cookies.get(ANON)
    return value if value and len(value) <= 64 else None


def ensure_anon(request: Request) -> str:
    """The anonymous form key of this browser, made for this request when it has none yet."""
    key = anon_key(request) or getattr(request.ctx, "new_anon", None)
    if key is None:
        key = request.ctx.new_anon = secrets.token_urlsafe(24)
    return key


def staff_hint(request: Request) -> bool:
    return request.cookies.get(STAFF_HINT) == "1"


def ask_staff(request: Request, response: HTTPResponse) -> None:
    """At sign-in: the next page asks whether the person is staff (and keeps or drops the hint)."""
    _set(request, response, STAFF_HINT, "1", None)


def write_staff_hint(request: Request, response: HTTPResponse) -> None:
    """A response middleware: the hint follows what the platform last answered (``request.ctx.staff_seen``)."""
    seen = getattr(request.ctx, "staff_seen", None)
    if seen is True and not staff_hint(request):
        _set(request, response, STAFF_HINT, "1", None)
    elif seen is False and request.cookies.get(STAFF_HINT) is not None:
        _clear(request, response, STAFF_HINT)


def write_anon(request: Request, response: HTTPResponse) -> None:
    """A response middleware: sets the anonymous key a page made while rendering its forms."""
    key = getattr(request.ctx, "new_anon", None)
    if key is not None:
        _set(request, response, ANON, key, None)


def carry(request: Request, response: HTTPResponse, kind: str, value: dict[str, Any]) -> None:
    sealed = SEALER.seal_text("carry", json.dumps({"k": kind, "v": value, "t": int(time.time())}).encode())
    _set(request, response, f"{CARRY}_{kind}", sealed, CARRY_SECONDS)


def carried(request: Request, kind: str) -> dict[str, Any] | None:
    sealed = request.cookies.get(f"{CARRY}_{kind}")
    if not sealed:
        return None
    try:
        record = json.loads(SEALER.unseal_text("carry", sealed))
    except (SealError, ValueError):
        return None
    if record.get("k") != kind or time.time() - record.get("t", 0) > CARRY_SECONDS:
        return None
    return record.get("v")


def drop_carry(request: Request, response: HTTPResponse, kind: str) -> None:
    _clear(request, response, f"{CARRY}_{kind}")
