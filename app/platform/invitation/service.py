"""Invitations: made by an account's admins, decided by the person invited.

Life: ``pending`` for :data:`LIFE_DAYS` days, then read as ``expired``; ``accepted`` (a
membership is made), ``declined`` (by the person) or ``revoked`` (cancelled by the account). Only
the SHA-256 of the link's token is stored; the token travels in the e-mail only. Deciding again
what was decided the same way is idempotent; deciding otherwise is refused with the state's error
(``AlreadyAccepted``, ``Declined`` 409; ``Expired``, ``Revoked`` 410).

The e-mail goes out through Herald's own accept path (app/platform/message/service.py), as the
account that sends Herald's own mail: the tenant of ``IDENTITY_MAIL_KEY`` when it is configured,
else the "Herald" system tenant (slug ``herald-system``) in test mode from the sandbox domain. The
message and its outbox row commit with the invitation: an invitation never exists without its
e-mail queued, and a failed write queues nothing.

Each inviter queues at most :data:`MAILS_PER_INVITER` invitation e-mails a day (a fixed UTC day in
Redis, app/http/ratelimit.py, shared by every process): past it, 429 ``Throttling`` with
``Retry-After`` (until the next UTC midnight) and the ``X-RateLimit-*`` headers. An e-mail is
counted once the invitation has passed its own checks (a refused duplicate costs nothing), just
before it is queued.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from html import escape

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.ratelimit import RateLimiter
from app.platform.api_key.principal import KeyDirectory, Principal
from app.platform.errors import (AlreadyAccepted, Declined, Expired, InviteEmailMismatch, InviteInvalid,
                                 ResourceLimit, Revoked)
from app.platform.member import service as members
from app.platform.member.service import TenantAccess
from app.platform.message import service as messages
from app.platform.tenant.service import create_tenant
from kit.settings import Settings
from models.platform.domain import SANDBOX_DOMAIN
from models.platform.invitation import LIFE_DAYS, Invitation, InvitationStatus, hash_token, new_token
from models.platform.member import Role
from models.platform.tenant import Tenant

PENDING_PER_TENANT = 100
SYSTEM_TENANT_SLUG = "herald-system"  # the same as herald/bootstrap.py's
INVITATION_ID = "cvt_"
MAILS_PER_INVITER = 50  # invitation e-mails a day per inviter (issue 38: an inviter is no mailing list)
DAY = 86400


@dataclass(frozen=True)
class Mailer:
    """Who Herald's own e-mail is sent as (see the module's docstring)."""

    key: str | None
    sender: str | None
    platform_url: str

    @classmethod
    def of(cls, settings: Settings) -> "Mailer":
        return cls(settings.identity_mail_key, settings.identity_mail_from, settings.url_of("console"))


def status_of(row: Invitation, now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    if row.status == InvitationStatus.PENDING.value and row.expires_at <= now:
        return InvitationStatus.EXPIRED.value
    return row.status


def normal_email(email: str) -> str:
    return email.strip().casefold()


async def _sender_principal(conn: BaseDBAsyncClient, mailer: Mailer) -> tuple[Principal, str]:
    if mailer.key and mailer.sender:
        principal = await KeyDirectory().lookup(mailer.key)
        if principal is not None and not principal.revoked:
            return principal, mailer.sender
    tenant = await Tenant.get_or_none(slug=SYSTEM_TENANT_SLUG, using_db=conn)
    if tenant is None:
        tenant = await create_tenant("Herald", SYSTEM_TENANT_SLUG, purge_content=True)
    principal = Principal(key_pk=None, key_id="", key_name="herald invitations", scopes=("email:send",), mode="test",
                          publishable=False, revoked=False, tenant_pk=tenant.id, tenant_id=tenant.public_id,
                          tenant_name=tenant.name, tenant_status=tenant.status, plan=tenant.plan,
                          effective_quota=None)
    return principal, f"accounts@{SANDBOX_DOMAIN}"


async def _send(conn: BaseDBAsyncClient, mailer: Mailer, row: Invitation, token: str, tenant_name: str) -> None:
    principal, sender = await _sender_principal(conn, mailer)
    link = f"{mailer.platform_url.rstrip('/')}/invitations/accept?token={token}"
    # The token is in the body only, never in the subject (subjects are kept in logs and webhooks).
    subject = f"You are invited to {tenant_name} on Herald"
    text = (f"You have been invited to join {tenant_name} on Herald as {row.role}.\n\n"
            f"Accept the invitation: {link}\n\nThe link works for {LIFE_DAYS} days. "
            "If you did not expect this, ignore this e-mail.")
    html = (f"<p>You have been invited to join <b>{escape(tenant_name)}</b> on Herald as {escape(row.role)}.</p>"
            f"<p><a href=\"{escape(link)}\">Accept the invitation</a></p>"
            f"<p>The link works for {LIFE_DAYS} days. If you did not expect this, ignore this e-mail.</p>")
    content = {"Text": text, "Html": html, "Charset": "UTF-8", "To": [row.email], "Cc": []}
    item = messages.Item([messages.Draft(row.email, "to", sender, subject, content, {"herald": "invitation"})])
    [outcome] = await messages.accept(conn, principal, "email", "email.send", [item], compare_bodies=False)
    if outcome.error is not None:
        raise outcome.error


async def count_mail(limiter: RateLimiter, inviter: str) -> None:
    """Count one invitation e-mail of ``inviter`` (a ``usr_...``); 429 ``Throttling`` past the day's cap."""
    decision = await limiter.hit(f"invite-mail:{inviter}", MAILS_PER_INVITER, DAY)
    if not decision.allowed:
        raise errors.Throttling(decision.retry_after,
                                f"At most {MAILS_PER_INVITER} invitation e-mails a day per person; try again later.",
                                headers=decision.headers())


async def invite(conn: BaseDBAsyncClient, access: TenantAccess, email: str, role: Role, mailer: Mailer,
                 limiter: RateLimiter) -> Invitation:
    """A new pending invitation and its e-mail (one transaction: ``conn``). An admin invites
    admins and members, an owner also owners; one pending invitation per address and account;
    the e-mail counts against the inviter's daily cap (:func:`count_mail`)."""
    access.require(Role.OWNER if role is Role.OWNER else Role.ADMIN)
    now = datetime.now(timezone.utc)
    await conn.execute_query("SELECT id FROM tenants WHERE id = $1 FOR UPDATE", [access.tenant_pk])
    pending = Invitation.filter(tenant_id=access.tenant_pk, status=InvitationStatus.PENDING.value,
                                expires_at__gt=now).using_db(conn)
    if await pending.filter(email=normal_email(email)).exists():
        raise errors.Conflict("This address already has a pending invitation to this account.")
    if await pending.count() >= PENDING_PER_TENANT:
        raise ResourceLimit("pending invitations", PENDING_PER_TENANT)
    await count_mail(limiter, access.user_id)
    token = new_token()
    row = await Invitation.create(tenant_id=access.tenant_pk, email=normal_email(email), role=role.value,
                                  token_hash=hash_token(token), invited_by=access.user_id,
                                  expires_at=now + timedelta(days=LIFE_DAYS), using_db=conn)
    tenant = await Tenant.get(id=access.tenant_pk, using_db=conn)
    await _send(conn, mailer, row, token, tenant.name)
    return row


def pending_of(conn: BaseDBAsyncClient, tenant_pk: int):
    """The account's pending (not expired) invitations, for a keyset page."""
    return Invitation.filter(tenant_id=tenant_pk, status=InvitationStatus.PENDING.value,
                             expires_at__gt=datetime.now(timezone.utc)).using_db(conn)


async def by_token(conn: BaseDBAsyncClient, token: str) -> Invitation | None:
    if not token or len(token) > 200:
        return None
    return await Invitation.filter(token_hash=hash_token(token)).using_db(conn).select_related("tenant").first()


async def cancel(conn: BaseDBAsyncClient, access: TenantAccess, reference: str) -> Invitation:
    """Cancel (``revoked``) by invitation id (``cvt_...``) or by the link's token; idempotent."""
    query = Invitation.filter(tenant_id=access.tenant_pk).using_db(conn)
    query = query.filter(public_id=reference) if reference.startswith(INVITATION_ID) else \
        query.filter(token_hash=hash_token(reference))
    row = await query.select_for_update().first()
    if row is None:
        raise errors.NotFound("No such invitation.")
    access.require(Role.OWNER if row.role == Role.OWNER.value else Role.ADMIN)
    state = status_of(row)
    if state == InvitationStatus.ACCEPTED.value:
        raise AlreadyAccepted()
    if state == InvitationStatus.DECLINED.value:
        raise Declined()
    if row.status == InvitationStatus.PENDING.value:
        row.status, row.decided_at = InvitationStatus.REVOKED.value, datetime.now(timezone.utc)
        await row.save(using_db=conn, update_fields=["status", "decided_at"])
    return row


def _refuse(row: Invitation, user_id: str, wanted: str) -> bool:
    """Whether the decision is already made as ``wanted`` by this person (idempotent); raises the
    state's error when it cannot be made."""
    state = status_of(row)
    if state == wanted and (wanted != InvitationStatus.ACCEPTED.value or row.accepted_by == user_id):
        return True
    if state == InvitationStatus.ACCEPTED.value:
        raise AlreadyAccepted()
    if state == InvitationStatus.DECLINED.value:
        raise Declined()
    if state == InvitationStatus.EXPIRED.value:
        raise Expired()
    if state == InvitationStatus.REVOKED.value:
        raise Revoked()
    return False


async def _locked(conn: BaseDBAsyncClient, row: Invitation) -> Invitation:
    locked = await Invitation.filter(id=row.id).using_db(conn).select_for_update().first()
    locked.tenant = await Tenant.get(id=locked.tenant_id, using_db=conn)
    return locked


async def accept(conn: BaseDBAsyncClient, row: Invitation, user_id: str) -> tuple[Invitation, bool]:
    """Accept for ``user_id``: the membership is made (a stronger role kept). Returns the row and
    whether this call made the decision (False: accepted before, idempotent)."""
    row = await _locked(conn, row)
    if _refuse(row, user_id, InvitationStatus.ACCEPTED.value):
        return row, False
    await members.link(conn, row.tenant_id, user_id, Role(row.role))
    row.status, row.accepted_by = InvitationStatus.ACCEPTED.value, user_id
    row.decided_at = datetime.now(timezone.utc)
    await row.save(using_db=conn, update_fields=["status", "accepted_by", "decided_at"])
    return row, True


async def decline(conn: BaseDBAsyncClient, row: Invitation, user_id: str) -> None:
    row = await _locked(conn, row)
    if _refuse(row, user_id, InvitationStatus.DECLINED.value):
        return
    row.status, row.decided_at = InvitationStatus.DECLINED.value, datetime.now(timezone.utc)
    await row.save(using_db=conn, update_fields=["status", "decided_at"])


async def mine(conn: BaseDBAsyncClient, emails: list[str], reference: str) -> Invitation:
    """An invitation sent to one of the person's verified addresses; anything else (unknown, to
    someone else, not a ``cvt_`` id, no verified address) is the same 404."""
    if not emails or not reference.startswith(INVITATION_ID):
        raise errors.NotFound("No such invitation.")
    row = await Invitation.filter(public_id=reference, email__in=emails).using_db(conn).select_related("tenant").first()
    if row is None:
        raise errors.NotFound("No such invitation.")
    return row


async def for_person(conn: BaseDBAsyncClient, emails: list[str]) -> list[Invitation]:
    """Pending and expired invitations to the person's verified addresses, newest first."""
    if not emails:
        return []
    return await Invitation.filter(email__in=emails, status=InvitationStatus.PENDING.value).using_db(conn) \
        .select_related("tenant").order_by("-id").limit(200)


async def pending_count(conn: BaseDBAsyncClient, emails: list[str]) -> int:
    if not emails:
        return 0
    return await Invitation.filter(email__in=emails, status=InvitationStatus.PENDING.value,
                                   expires_at__gt=datetime.now(timezone.utc)).using_db(conn).count()


def check_for_registration(row: Invitation | None, email: str) -> Invitation:
    """The invitation a sign-up names: pending and addressed to the e-mail signing up, or 400."""
    if row is None or status_of(row) != InvitationStatus.PENDING.value:
        raise InviteInvalid()
    if row.email != normal_email(email):
        raise InviteEmailMismatch()
    return row
