"""Who is signed in, and which account a page acts on.

:func:`require_person` asks the platform who the session's person is, which accounts they belong
to and how many invitations wait for them (the navigation's badge), in one call (``GET
/api/me/navigation``: the platform checks the session with the identity server on every request,
so a revoked session ends here at once). No session, or one the platform refuses:
:class:`SignInNeeded` (the person is sent to sign in, told the session ended when there was one). :func:`require_account` then finds the account of an ``/a/<id>/`` page among
them or, for a sub-account reached through an ancestor, in the tree; anything else is the same
404 as a missing account (:class:`PageNotFound`).

Beside them it asks ``GET /api/admin/me`` (on the staff pages, and on the others for a browser
whose person was staff when last asked): platform staff get their support session (or none),
anyone else 404, so the staff area and its link exist only for staff (:func:`require_staff`). Inside
a support session the person sees the entered account alone, as its owners do, read-only: every
write but ending it is refused here (:class:`ReadOnly`), before the platform would refuse it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from sanic import Request

from app.console import cookies, upstream
from kit import logs


class SignInNeeded(Exception):
    def __init__(self, ended: bool = False):
        super().__init__("sign-in needed")
        self.ended = ended


class PageNotFound(Exception):
    """The same answer for a missing page, account or item and one that is not the person's."""


class ReadOnly(Exception):
    """A write asked inside a support session (the platform refuses it too: ``ImpersonationReadOnly``)."""


# The writes a support session still makes: ending it, and signing out.
SUPPORT_WRITES = ("/support/end", "/sign-out")


@dataclass
class Person:
    id: str
    email: str
    accounts: list[dict[str, Any]] = field(default_factory=list)
    pending_invitations: int | None = None  # the navigation's badge; None when the count is unknown
    staff: bool = False
    support: dict[str, Any] | None = None  # the support session the person is in (entered account in "Account")


def _flatten(nodes: list[dict], depth: int = 0) -> list[dict]:
    found = []
    for node in nodes:
        found.append({**node, "Depth": depth})
        found.extend(_flatten(node.get("Children") or [], depth + 1))
    return found


STAFF_PATHS = ("/staff", "/support/")


async def _staff(request: Request) -> upstream.Answer | None:
    """``GET /api/admin/me``: 200 for staff (with their support session), 404 for anyone else.
    Asked on the staff pages, and elsewhere only for a browser whose person was staff when last
    asked (``cookies.staff_hint``, set at sign-in and kept by the answer): the rest pay no call."""
    if not (cookies.staff_hint(request) or request.path.startswith(STAFF_PATHS)):
        return None
    try:
        answer = await upstream.call(request, "GET", "/api/admin/me")
    except upstream.Unavailable:
        return None
    if answer.ok or answer.status == 404:
        request.ctx.staff_seen = answer.ok
    return answer


async def _entered(request: Request, support: dict[str, Any]) -> dict[str, Any]:
    """The account a support session entered, as the switcher and the pages read an account: the
    owners' screens (role ``owner``), every form disabled by the layout."""
    found = await upstream.call(request, "GET", f"/api/admin/tenants/{support['TenantId']}")
    row = found.get("Tenant") if found.ok else None
    row = row if isinstance(row, dict) else {"Id": support["TenantId"], "Name": support["TenantId"]}
    return {**row, "Role": "owner", "Support": True}


async def require_person(request: Request) -> Person:
    if not cookies.session_token(request):
        raise SignInNeeded()
    # One request, one session hop: the platform answers who the person is, their accounts and the
    # badge's count together (GET /api/me/navigation), rather than three routes each checking the
    # session; the staff check, for the few who need it, goes beside it.
    found, staff = await asyncio.gather(upstream.call(request, "GET", "/api/me/navigation"), _staff(request))
    if found.status == 401:
        raise SignInNeeded(ended=True)
    if not found.ok:
        raise upstream.Unavailable()
    pending = found.get("PendingInvitations")
    person = Person(found.get("UserId", ""), found.get("UserEmail", ""),
                    sorted(found.get("Tenants") or [], key=lambda a: a["Name"].casefold()),
                    pending if isinstance(pending, int) else None,
                    staff=bool(staff and staff.ok and staff.get("Staff") is True))
    support = staff.get("SupportSession") if person.staff else None
    if isinstance(support, dict) and support.get("TenantId"):
        # Inside a support session the platform answers for the entered account alone (any other is
        # 404 there), so the console offers it alone.
        entered = await _entered(request, support)
        person.support, person.accounts = {**support, "Account": entered}, [entered]
    request.ctx.person = person
    request.ctx.accounts = person.accounts
    if person.support and request.method not in ("GET", "HEAD") and request.path not in SUPPORT_WRITES:
        raise ReadOnly()
    return person


async def require_staff(request: Request) -> Person:
    """The person, when they are platform staff; the same 404 as a missing page for anyone else."""
    person = getattr(request.ctx, "person", None) or await require_person(request)
    if not person.staff:
        raise PageNotFound()
    return person


async def require_account(request: Request, account_id: str) -> dict[str, Any]:
    """The account of an ``/a/<id>/`` page, with the person's role on it (inherited: from the ancestor)."""
    person = getattr(request.ctx, "person", None) or await require_person(request)
    for account in person.accounts:
        if account["Id"] == account_id:
            request.ctx.account = account
            logs.bind(account=account_id)
            return account
    for direct in person.accounts:  # reached through an ancestor: the same role, one level down or more
        tree = await upstream.call(request, "GET", "/api/tenants/tree", tenant=direct["Id"])
        if not tree.ok:
            continue
        for node in _flatten(tree.get("Tree", [])):
            if node["Id"] == account_id:
                account = {**node, "Role": direct.get("Role", "member"), "InheritedFrom": direct["Name"]}
                request.ctx.account = account
                logs.bind(account=account_id)
                return account
    raise PageNotFound()


def is_admin(account: dict[str, Any]) -> bool:
    return account.get("Role") in ("owner", "admin")
