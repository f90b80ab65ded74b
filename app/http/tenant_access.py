"""Who may act in which account on a system that is not the platform (CRM, pages, runtime).

Those systems do not keep memberships: the identity server decides. A request carries an identity
session (``Authorization: Bearer`` or the session cookie, checked with the session hop on every
request) and names the account in ``X-Service-Tenant``; :func:`session_access` asks the identity
server whether that user may use the system's product in that account, with at least a role
(``POST /v1/authz/decide``, answers cached at most 60 s by :class:`app.http.identity.Decisions`).

How refusals read (docs/services.md, "Acting in an account"):

- no session, or a dead one: 401 ``AuthorizationError``;
- no ``X-Service-Tenant``: 400 ``ValidationError`` naming the header;
- the account is not the user's, does not exist, or has not subscribed to the product: 404, the
  same answer in every case, so existence is never confirmed (the contract's 404-never-403 rule);
- the user is in, with a lower role than the route needs: 403 ``PermissionDenied``;
- the identity server cannot say: 502 for the session hop, 503 with ``Retry-After`` for the
  decision; never an allow;
- a session inside a read-only support session (platform staff who entered an account): any write
  is 403 ``ImpersonationReadOnly``, a read is recorded in the account's trail (503 when it cannot
  be) and allowed in the entered account only (app/http/support_access.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sanic import Request

from app.http import errors
from app.http.identity import SessionPrincipal, decisions, require_session
from app.http.support_access import refuse_writes, support_access
from kit import logs

TENANT_HEADER = "X-Service-Tenant"
# A tenant id as the platform issues it (acc_<hex>); anything else cannot name an account.
TENANT_ID = re.compile(r"[a-z]{2,8}_[A-Za-z0-9]{1,64}")
# Reasons of a refused decision that mean "not yours" rather than "not enough" (docs/identity.md).
ROLE_TOO_LOW = "papel_insuficiente"


@dataclass(frozen=True)
class TenantAccess:
    """The account a request acts in and who acts: a session user with a role in the product, or
    (set by a system's own API-key gate) an API key with its scopes."""

    tenant_id: str
    user_id: str | None = None
    role: str | None = None
    scopes: frozenset[str] | None = None
    session: SessionPrincipal | None = None
    support_id: str | None = None  # inside a read-only support session (sup_...)

    @property
    def via_session(self) -> bool:
        return self.session is not None


def requested_tenant(request: Request) -> str:
    """The account named by the request's ``X-Service-Tenant`` header, or 400."""
    value = request.headers.get(TENANT_HEADER, "").strip()
    if not value:
        raise errors.ValidationError(f"The {TENANT_HEADER} header is required: name the account to act in.",
                                     details={TENANT_HEADER: "required"})
    if not TENANT_ID.fullmatch(value):
        raise errors.NotFound("Account not found.")
    return value


async def session_access(request: Request, product: str, role: str | None = None) -> TenantAccess:
    """The request's live session, allowed to use ``product`` in the named account with at least
    ``role``; kept on ``request.ctx.access``."""
    session = await require_session(request)
    refuse_writes(request, session)
    tenant = requested_tenant(request)
    if session.support_id is not None:
        decision = await support_access(request, session, tenant, product)
    else:
        decision = await decisions(request.app).decide(session.user_id, tenant, product, role)
    if not decision.allowed:
        if decision.reason == ROLE_TOO_LOW:
            raise errors.PermissionDenied(f"Your role in this account does not allow this ({role} needed).")
        raise errors.NotFound("Account not found.")
    access = TenantAccess(tenant_id=tenant, user_id=session.user_id, role=decision.role, session=session,
                          support_id=decision.support)
    request.ctx.access = access
    logs.bind(account=tenant)
    return access
