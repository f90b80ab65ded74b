"""Accounts on the operator surface, and support sessions: rules only.

A support session travels with the operator's *identity session*: opening one records a
:class:`SupportMarker` keyed by that session's id (``ses_...``), so every request made with that
session (cookie or Bearer, on /api or /api/admin) is known to be inside it, and ending it (or the
session's expiry) drops the marker. Nothing is put in the token itself: the identity server keeps
no platform state, and ending a support session works at once, like a logout.

Inside a support session:

- every write (any method but GET, HEAD, OPTIONS) is refused with 403 ``ImpersonationReadOnly``
  (:func:`refuse_writes_in_support_session`), except ``POST /api/admin/impersonation/end``;
- the dashboard acts in the entered account (:func:`support_access`) with the owner's reach (it
  reads what the account's owner reads): ``X-Service-Tenant`` absent means the entered account,
  and naming any other account (header or path) answers 404;
- every dashboard read is recorded in the account's trail before it is answered
  (:func:`record_read`; the answer's status is added after it, :func:`note_status`): a read that
  cannot be recorded is refused with 503, so nothing is seen off the record.

The other systems (CRM, pages, runtime, mail) know a support session from the identity server,
which the platform tells when one opens or ends (seats.py); their gates record their reads here
(:func:`record_system_read`, through app/platform/support/internal.py).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

from asyncpg import PostgresError
from sanic import Request
from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import BaseORMException
from tortoise.expressions import Q

from app.http import errors
from app.http.services import ServiceClient
from app.platform import db
from app.platform.errors import ImpersonationReadOnly
from app.platform.member.service import TenantAccess
from app.platform.staff.service import Actor, record
from app.platform.support import seats
from app.platform.tenant import service as tenants
from models.platform.member import Role
from models.platform.staff import SupportMarker
from models.platform.support_session import SupportRead, SupportSession
from models.platform.tenant import Tenant, TenantStatus

log = logging.getLogger("herald.support")

SUPPORT_MINUTES = 60  # a support session ends by itself after this long
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


# --- support sessions ---------------------------------------------------------------------------------

async def live_support(conn: BaseDBAsyncClient, session_id: str) -> SupportSession | None:
    """The support session the identity session ``session_id`` is inside, if any (not ended, not expired)."""
    # Asked on every dashboard request and almost always answered "none": one plain indexed read
    # first, the ORM's query with its two joins only for a session that has a marker (a third of
    # a dashboard request's CPU went to building that query, bench/console.py).
    _, found = await conn.execute_query("SELECT 1 FROM support_markers WHERE session_id = $1", [session_id])
    if not found:
        return None
    marker = await SupportMarker.filter(session_id=session_id).using_db(conn).select_related(
        "support", "support__tenant").first()
    if marker is None:
        return None
    support = marker.support
    if support.ended_at is not None or support.expires_at <= datetime.now(timezone.utc):
        return None
    return support


async def refuse_writes_in_support_session(request: Request) -> SupportSession | None:
    """For a gate, after the session is proved (``request.ctx.session``): the live support session of
    that session (kept on ``request.ctx.support``), refusing any write inside it with 403
    ``ImpersonationReadOnly`` (a route declaring ``ctx_support_exit=True`` is the one way out)."""
    session = request.ctx.session
    try:
        support = await live_support(db.connection(), session.session_id)
    except (BaseORMException, PostgresError, OSError) as failure:
        # The platform's database is away: a read cannot change anything, so it goes on (its own
        # reads fail or degrade, like GET /api/flags); a write is refused, never let through unchecked.
        if request.method not in SAFE_METHODS:
            raise errors.ServiceUnavailable("The dashboard cannot take changes right now; try again shortly.",
                                            retry_after=5) from failure
        support = None
    request.ctx.support = support
    if support is None or request.method in SAFE_METHODS:
        return support
    route = request.route
    if route is not None and getattr(route.ctx, "support_exit", False):
        return support
    raise ImpersonationReadOnly()


async def dashboard_access(request: Request, where: str | None) -> TenantAccess | None:
    """The /api gate's support-session step, after the session is proved: refuses writes inside a
    support session, records its reads (another account's included: the attempt is on the record
    too), and gives the access a ``ctx_tenant`` route acts with during one (None outside a support
    session, or for a route that names no account: the gate resolves as usual)."""
    support = await refuse_writes_in_support_session(request)
    if support is None:
        return None
    if request.method in SAFE_METHODS:  # a write never gets here (refused just above)
        await record_read(request, support)
    if where is None:
        return None
    return support_access(request, support, where)


def support_access(request: Request, support: SupportSession, where: str) -> TenantAccess:
    """The account a dashboard route acts in during a support session: the entered one, as a member
    sees it; another account named by the path or ``X-Service-Tenant`` is 404 like a missing one."""
    entered = support.tenant
    if where == "path":
        named = request.match_info.get("tenant_id", "")
    else:
        named = (request.headers.get("x-service-tenant") or "").strip() or entered.public_id
    if named != entered.public_id:
        raise errors.NotFound("No such tenant.")
    # The owner's role: support sees what the person asking for help sees (API keys, request logs,
    # members); writes never reach a handler (refuse_writes_in_support_session).
    return TenantAccess(entered.id, entered.public_id, request.ctx.session.user_id, Role.OWNER, False)


MAX_PATH = 500


async def record_read(request: Request, support: SupportSession) -> None:
    """Write the read into the account's trail before it is answered (kept on
    ``request.ctx.support_read``). The path goes without its query string: a search term may be
    personal data. The database away: 503, the read is not served unrecorded."""
    try:
        row = await SupportRead.create(support_id=support.id, method=request.method,
                                       path=request.path[:MAX_PATH], using_db=db.connection())
    except (BaseORMException, PostgresError, OSError) as failure:
        raise errors.ServiceUnavailable("Reads inside a support session cannot be recorded right now; "
                                        "try again shortly.", retry_after=5) from failure
    request.ctx.support_read = row.id


async def note_status(request: Request, status: int) -> None:
    """Add the answer's status to the recorded read (a failure here loses the status, not the read)."""
    read_id = getattr(request.ctx, "support_read", None)
    if read_id is None:
        return
    request.ctx.support_read = None
    try:
        await SupportRead.filter(id=read_id).using_db(db.connection()).update(status=status)
    except (BaseORMException, PostgresError, OSError) as failure:
        log.warning("support read %s: status %s not recorded: %s", read_id, status, failure)


async def record_system_read(conn: BaseDBAsyncClient, support_id: str, system: str, method: str,
                             path: str) -> SupportRead:
    """A read another system made inside the support session ``support_id`` (404 when it is over:
    that system then answers as to a stranger)."""
    support = await SupportSession.filter(public_id=support_id, ended_at=None,
                                          expires_at__gt=datetime.now(timezone.utc)).using_db(conn).first()
    if support is None:
        raise errors.NotFound("No such live support session.")
    return await SupportRead.create(support_id=support.id, system=system, method=method, path=path[:MAX_PATH],
                                    using_db=conn)


async def note_system_status(conn: BaseDBAsyncClient, support_id: str, read_id: int, status: int) -> None:
    if not await SupportRead.filter(id=read_id, support__public_id=support_id).using_db(conn).update(status=status):
        raise errors.NotFound("No such support read.")


def reads(conn: BaseDBAsyncClient, tenant_pk: int, support_id: str):
    """The reads of one support session opened on the account, for a keyset page."""
    return SupportRead.filter(support__public_id=support_id, support__tenant_id=tenant_pk).using_db(conn)


async def enter(conn: BaseDBAsyncClient, identity: ServiceClient, actor: Actor, session_id: str, tenant_id: str,
                reason: str) -> SupportSession:
    """Open a support session on ``tenant_id`` for the operator's identity session, seated on the
    identity server too (seats.py) before the transaction commits."""
    tenant = await Tenant.filter(public_id=tenant_id).using_db(conn).first()
    if tenant is None:
        raise errors.NotFound("No such tenant.")
    # A dead marker (ended or expired session) is replaced; a live one never reaches here (read-only).
    await SupportMarker.filter(session_id=session_id).using_db(conn).delete()
    support = await SupportSession.create(
        tenant_id=tenant.id, operator_id=actor.user_id, operator_email=actor.email, reason=reason,
        expires_at=datetime.now(timezone.utc) + timedelta(minutes=SUPPORT_MINUTES), using_db=conn)
    await SupportMarker.create(session_id=session_id, support_id=support.id, using_db=conn)
    await seats.seat(identity, support, session_id, tenant.public_id, SUPPORT_MINUTES * 60)
    await record(conn, actor, "support.enter", tenant.public_id, {"SupportSessionId": support.public_id,
                                                                 "Reason": reason})
    support.tenant = tenant
    return support


async def end(conn: BaseDBAsyncClient, identity: ServiceClient, actor: Actor, session_id: str) -> SupportSession:
    """End the operator's support session at once (404 when the session is in none); the identity
    server's seat first, so every system stops answering before the platform records the end."""
    support = await live_support(conn, session_id)
    await SupportMarker.filter(session_id=session_id).using_db(conn).delete()
    if support is None:
        raise errors.NotFound("This session is in no support session.")
    await seats.unseat(identity, support.public_id)
    support.ended_at = datetime.now(timezone.utc)
    await support.save(using_db=conn, update_fields=["ended_at"])
    await record(conn, actor, "support.end", support.tenant.public_id, {"SupportSessionId": support.public_id})
    return support


# --- accounts, platform view --------------------------------------------------------------------------

def accounts(conn: BaseDBAsyncClient, q: str | None):
    """Every account (for a keyset page), optionally those whose id, name or slug contains ``q``."""
    query = Tenant.all().using_db(conn).select_related("parent")
    if q:
        query = query.filter(Q(public_id__icontains=q) | Q(name__icontains=q) | Q(slug__icontains=q))
    return query


async def account(conn: BaseDBAsyncClient, tenant_id: str) -> Tenant:
    found = await Tenant.filter(public_id=tenant_id).using_db(conn).select_related("parent").first()
    if found is None:
        raise errors.NotFound("No such tenant.")
    return found


UNSET = object()


async def edit_account(conn: BaseDBAsyncClient, actor: Actor, tenant_id: str, *, status: str | None = None,
                       plan: str | None = None, monthly_quota=UNSET, reason: str = "") -> tuple[Tenant, dict]:
    """Change an account's status, plan or quota; the change (before and after, and the reason
    given, as ``Reason``) goes to the audit trail. Returns the account and the change made (empty
    when nothing changed)."""
    tenant = await account(conn, tenant_id)
    await conn.execute_query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [tenant.id])
    tenant = await account(conn, tenant_id)
    change: dict = {}
    if status is not None and status != tenant.status:
        change["Status"] = {"From": tenant.status, "To": status}
    if plan is not None and plan != tenant.plan:
        change["Plan"] = {"From": tenant.plan, "To": plan}
    updates = {"status": status if "Status" in change else None, "plan": plan if "Plan" in change else None}
    updates = {name: value for name, value in updates.items() if value is not None}
    if updates:
        await Tenant.filter(id=tenant.id).using_db(conn).update(**updates)
    if monthly_quota is not UNSET and monthly_quota != tenant.monthly_quota:
        change["MonthlyQuota"] = {"From": tenant.monthly_quota, "To": monthly_quota}
        await tenants.set_quota(conn, tenant.id, monthly_quota)
    if change:
        await record(conn, actor, "tenant.update", tenant.public_id,
                     {**change, **({"Reason": reason} if reason else {})})
    return await account(conn, tenant_id), change


STATUSES = (TenantStatus.ACTIVE.value, TenantStatus.SUSPENDED.value)
