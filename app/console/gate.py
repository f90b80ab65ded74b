"""Who is signed in, and which account a page acts on.

:func:`require_person` asks the platform who the session's person is, which accounts they belong
to and how many invitations wait for them (the navigation's badge), in one call (``GET
/api/me/navigation``: the platform checks the session with the identity server on every request,
so a revoked session ends here at once). No session, or one the platform refuses:
:class:`SignInNeeded` (the person is sent to sign in, told the session ended when there was one). :func:`require_account` then finds the account of an ``/a/<id>/`` page among
them or, for a sub-account reached through an ancestor, in the tree; anything else is the same
404 as a missing account (:class:`PageNotFound`).
"""

from __future__ import annotations

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


@dataclass
class Person:
    id: str
    email: str
    accounts: list[dict[str, Any]] = field(default_factory=list)
    pending_invitations: int | None = None  # the navigation's badge; None when the count is unknown


def _flatten(nodes: list[dict], depth: int = 0) -> list[dict]:
    found = []
    for node in nodes:
        found.append({**node, "Depth": depth})
        found.extend(_flatten(node.get("Children") or [], depth + 1))
    return found


async def require_person(request: Request) -> Person:
    if not cookies.session_token(request):
        raise SignInNeeded()
    # One request, one session hop: the platform answers who the person is, their accounts and the
    # badge's count together (GET /api/me/navigation), rather than three routes each checking the session.
    found = await upstream.call(request, "GET", "/api/me/navigation")
    if found.status == 401:
        raise SignInNeeded(ended=True)
    if not found.ok:
        raise upstream.Unavailable()
    pending = found.get("PendingInvitations")
    person = Person(found.get("UserId", ""), found.get("UserEmail", ""),
                    sorted(found.get("Tenants") or [], key=lambda a: a["Name"].casefold()),
                    pending if isinstance(pending, int) else None)
    request.ctx.person = person
    request.ctx.accounts = person.accounts
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
