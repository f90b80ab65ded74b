"""Registration: a saga across the identity server and the platform, with compensation.

Steps (docs/accounts.md, "Registration"):

1. *Checks, nothing written*: an invitation named by ``ConviteToken`` must be pending and sent to
   the address signing up (400 ``InviteInvalid`` / ``InviteEmailMismatch``).
2. *Identity*: the user is made (``POST /v1/users``; 409 when the address has an account).
3. *Platform*, one transaction: the invitation is accepted (``Invited``), or an access request is
   filed when the address's domain is claimed by an account (``DomainClaimed``; its admins see it
   only once the address is verified, below), or, when a root
   account already has the name, nothing (``TenantNameTaken``), or the account is made with the
   person as owner (201).
   **Compensation**: when this step fails (the platform's database down, the write refused), the
   user made in step 2 is withdrawn through the identity server's
   ``DELETE /internal/v1/users/{id}`` and the sign-up answers 503: no user without its account is
   left behind. If the withdrawal fails too, the orphan's id is logged at error level.
4. *Identity grants* for a new account (subscriptions, the owner's ``admin``). When they fail the
   account is removed again and the answer is 202 ``ProvisioningFailed``: the person exists and
   can sign in and create an account later.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from tortoise.backends.base.client import BaseDBAsyncClient
from tortoise.exceptions import IntegrityError

from app.http import errors
from app.http.services import ServiceClient
from app.platform.errors import AccountError, ConflictError
from app.platform.invitation import service as invitations
from app.platform.member import grants
from app.platform.member import service as members
from app.platform.session.service import Caller, call
from app.platform.tenant.service import create_tenant, tenant_by_id
from models.platform.domain import SenderDomain
from models.platform.invitation import Invitation
from models.platform.member import Role
from models.platform.registration import UNVERIFIED_LIFE_DAYS, AccessRequest, DomainClaim
from models.platform.tenant import Tenant

log = logging.getLogger("herald.dashboard")


class Reason:
    DOMAIN_CLAIMED = "DomainClaimed"
    TENANT_NAME_TAKEN = "TenantNameTaken"
    PROVISIONING_FAILED = "ProvisioningFailed"
    INVITED = "Invited"


@dataclass
class Outcome:
    user_id: str
    email: str
    tenant: Tenant | None = None
    reason: str | None = None
    access_request_id: str | None = None
    created_account: bool = False


def domain_of(email: str) -> str:
    return email.rsplit("@", 1)[-1].strip().lower()


async def create_user(identity: ServiceClient, caller: Caller, email: str, password: str, name: str | None) -> str:
    body = {"email": email, "password": password}
    if name:
        body["name"] = name
    made = await call(identity, caller, "POST", "/v1/users", json=body)
    return made["user"]["id"]


async def withdraw_user(identity: ServiceClient, user_id: str) -> None:
    """The compensation of step 3: the user goes again. Failure is logged, never raised over the
    error that made the compensation necessary."""
    try:
        answer = await identity.request("DELETE", f"/internal/v1/users/{user_id}")
        if answer.status != 204:
            log.error("sign-up compensation: identity refused to withdraw %s (%s)", user_id, answer.status)
    except Exception as failure:  # noqa: BLE001
        log.error("sign-up compensation failed: user %s is left without an account (%r)", user_id, failure)


async def platform_step(conn: BaseDBAsyncClient, outcome: Outcome, tenant_name: str | None,
                        invitation: Invitation | None) -> Outcome:
    """Step 3, in the transaction ``conn``."""
    if invitation is not None:
        row, _ = await invitations.accept(conn, invitation, outcome.user_id)
        outcome.tenant, outcome.reason = row.tenant, Reason.INVITED
        return outcome
    claim = await DomainClaim.filter(domain=domain_of(outcome.email)).using_db(conn).select_related("tenant").first()
    if claim is not None:
        request = await AccessRequest.create(tenant_id=claim.tenant_id, user_id=outcome.user_id, email=outcome.email,
                                             using_db=conn)
        outcome.reason, outcome.access_request_id = Reason.DOMAIN_CLAIMED, request.public_id
        return outcome
    name = (tenant_name or "").strip()
    if await Tenant.filter(parent_id=None, name__iexact=name).using_db(conn).exists():
        outcome.reason = Reason.TENANT_NAME_TAKEN
        return outcome
    tenant = await create_tenant(name)
    await members.link(conn, tenant.id, outcome.user_id, Role.OWNER)
    outcome.tenant, outcome.created_account = tenant, True
    return outcome


# --- domain claims (operator: herald tenant claim-domain / release-domain) -------------------------

async def claim_domain(tenant_id: str, domain: str) -> DomainClaim:
    """The account claims ``domain``: it must be a verified sender domain of the account (proof
    that the account controls its DNS), and no other account may hold the claim."""
    tenant = await tenant_by_id(tenant_id)
    name = domain.strip().lower().rstrip(".")
    sender = await SenderDomain.filter(tenant_id=tenant.id, name=name).first()
    if sender is None or not sender.verified:
        raise AccountError(f"{name} is not a verified sender domain of {tenant_id}; verify it first")
    existing = await DomainClaim.get_or_none(domain=name)
    if existing is not None:
        if existing.tenant_id == tenant.id:
            return existing
        raise ConflictError(f"{name} is claimed by another account")
    try:
        return await DomainClaim.create(tenant=tenant, domain=name)
    except IntegrityError:
        raise ConflictError(f"{name} is claimed by another account") from None


async def release_domain(tenant_id: str, domain: str) -> bool:
    tenant = await tenant_by_id(tenant_id)
    return bool(await DomainClaim.filter(tenant_id=tenant.id, domain=domain.strip().lower().rstrip(".")).delete())


# --- access requests (an account's admins decide them) --------------------------------------------
#
# Filing a request needs no proof that the person holds the address: anyone can sign up with any
# address of a claimed domain. So the account's admins see a request, and may decide it, only
# once the identity server reports that address verified (the person clicked the link sent to
# it); the platform stamps ``verified_at`` when it sees that. A request still unverified
# UNVERIFIED_LIFE_DAYS after it was filed has expired: a query-time filter (no schedule), so it
# is never checked again, never shown and never decided.

REFRESH_LIMIT = 50  # unverified requests checked with the identity server per listing, newest first


def _unverified_cutoff() -> datetime:
    return datetime.now(timezone.utc) - timedelta(days=UNVERIFIED_LIFE_DAYS)


async def refresh_verified(conn: BaseDBAsyncClient, identity: ServiceClient, tenant_pk: int,
                           request_id: str | None = None) -> int:
    """Stamp ``verified_at`` on the account's pending, unexpired, unverified requests (or the one
    named) whose address the identity server now reports verified. Returns how many. An identity
    server that does not answer leaves them as they are (logged): they stay unseen, never shown
    unverified."""
    query = AccessRequest.filter(tenant_id=tenant_pk, status="pending", verified_at=None,
                                 created_at__gt=_unverified_cutoff()).using_db(conn)
    if request_id is not None:
        query = query.filter(public_id=request_id)
    rows = await query.order_by("-id").limit(REFRESH_LIMIT)
    gate = asyncio.Semaphore(8)

    async def verified(row: AccessRequest) -> int | None:
        async with gate:
            try:
                person = await grants.person(identity, row.user_id)
            except errors.HttpError as failure:
                log.warning("access request %s: the identity server did not say whether %s is verified (%s)",
                            row.public_id, row.user_id, failure.code)
                return None
        same = person["email"].strip().casefold() == row.email.strip().casefold()
        return row.id if same and person["email_verified"] else None

    found = [pk for pk in await asyncio.gather(*(verified(row) for row in rows)) if pk is not None]
    if found:
        await AccessRequest.filter(id__in=found, verified_at=None).using_db(conn) \
            .update(verified_at=datetime.now(timezone.utc))
    return len(found)


def pending_requests(conn: BaseDBAsyncClient, tenant_pk: int):
    """The account's pending access requests whose address is verified, for a keyset page."""
    return AccessRequest.filter(tenant_id=tenant_pk, status="pending", verified_at__not_isnull=True).using_db(conn)


async def decide_request(conn: BaseDBAsyncClient, tenant_pk: int, request_id: str, approve: bool,
                         role: Role = Role.MEMBER) -> AccessRequest:
    """Approve (the person becomes a member with ``role``) or deny a pending request; deciding it
    the same way again is idempotent, the other way 409. A request whose address is not verified
    (or expired so) is 404, exactly like a missing one: the admins do not see it."""
    row = await AccessRequest.filter(tenant_id=tenant_pk, public_id=request_id, verified_at__not_isnull=True) \
        .using_db(conn).select_for_update().first()
    if row is None:
        raise errors.NotFound("No such access request.")
    wanted = "approved" if approve else "denied"
    if row.status == wanted:
        return row
    if row.status != "pending":
        raise errors.Conflict(f"This access request was {row.status} already.")
    if approve:
        await members.link(conn, tenant_pk, row.user_id, role)
    row.status = wanted
    await row.save(using_db=conn, update_fields=["status"])
    return row
