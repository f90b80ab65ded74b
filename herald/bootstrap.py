"""What ``herald up`` does once on a new ./var/: a demo tenant and a test key to try Herald with,
the first operator; and, while IDENTITY_MAIL_KEY is not configured, the key the identity server's
e-mail goes out with. ``herald credentials reset`` (herald/credentials.py) issues the demo key and the
first operator's password again through the same functions."""

from __future__ import annotations

import os

from tortoise import Tortoise
from tortoise.transactions import in_transaction

from app.platform.api_key.service import create_key, revoke_key
from app.platform.tenant.service import create_tenant
from kit.settings import Settings
from models import tortoise_config
from models.platform.api_key import ApiKey, KeyKind, hash_key
from models.platform.domain import SANDBOX_DOMAIN
from models.platform.scopes import DEMO_SCOPES
from models.platform.tenant import Tenant

MARKER = ".bootstrapped"
DEMO_SLUG = "demo"
DEMO_KEY_NAME = "demo (created by herald up)"


async def issue_demo_key(tenant: Tenant) -> tuple[ApiKey, str, list[str]]:
    """A new test-mode demo key of ``tenant``; the demo keys issued before it are revoked (other
    keys of the tenant are left alone). Returns the key, its plaintext (to show once) and the ids
    of the keys revoked. The ORM must be initialised on the platform database."""
    async with in_transaction("platform"):
        key, plaintext = await create_key(tenant.public_id, DEMO_KEY_NAME, list(DEMO_SCOPES), KeyKind.TEST)
        old = await ApiKey.filter(tenant_id=tenant.id, name=DEMO_KEY_NAME, kind=KeyKind.TEST.value,
                                  revoked_at=None).exclude(id=key.id).order_by("id")
        for row in old:
            await revoke_key(row.public_id)
    return key, plaintext, [row.public_id for row in old]


async def first_start(settings: Settings) -> list[str]:
    """Lines to show the operator (empty after the first start)."""
    marker = settings.var_dir / MARKER
    if marker.exists():
        return []
    await Tortoise.init(config=tortoise_config(settings, ["platform"], pool_max=2), _enable_global_fallback=True)
    try:
        tenant = await Tenant.get_or_none(slug=DEMO_SLUG) or await create_tenant("Demo", DEMO_SLUG)
        # Not issue_demo_key: a ./var/ made anew beside a kept database must not revoke a key in use.
        key, plaintext = await create_key(tenant.public_id, DEMO_KEY_NAME, list(DEMO_SCOPES), KeyKind.TEST)
    finally:
        await Tortoise.close_connections()
    marker.write_text(f"{tenant.public_id}\n")
    return [
        f"Demo tenant {tenant.public_id} with a test-mode key (shown once; test keys deliver to the sinks):",
        f"  {plaintext}",
        f"  scopes: {', '.join(key.scopes)}",
    ]


IDENTITY_MAIL_KEY_FILE = "identity_mail_key"
SYSTEM_TENANT_SLUG = "herald-system"
IDENTITY_MAIL_FROM = f"accounts@{SANDBOX_DOMAIN}"


async def identity_mail_key(settings: Settings) -> str:
    """The key identity e-mail is sent with when IDENTITY_MAIL_KEY is not configured.

    A test-mode key with ``email:send`` of the "Herald" system tenant (test keys send from the
    sandbox domain and deliver to the sinks), kept in ./var/identity_mail_key (mode 0600). Made on
    the first start that needs it, and again when the database no longer knows the stored one.
    """
    path = settings.var_dir / IDENTITY_MAIL_KEY_FILE
    await Tortoise.init(config=tortoise_config(settings, ["platform"], pool_max=2), _enable_global_fallback=True)
    try:
        if path.exists():
            stored = path.read_text().strip()
            if await ApiKey.filter(key_hash=hash_key(stored), revoked_at=None).exists():
                return stored
        tenant = await Tenant.get_or_none(slug=SYSTEM_TENANT_SLUG) or await create_tenant("Herald", SYSTEM_TENANT_SLUG)
        if not tenant.purge_content:  # its e-mails carry sign-in codes and reset links
            tenant.purge_content = True
            await tenant.save(update_fields=["purge_content"])
        _, plaintext = await create_key(tenant.public_id, "identity e-mail (created by herald up)", ["email:send"],
                                        KeyKind.TEST)
    finally:
        await Tortoise.close_connections()
    path.touch(mode=0o600)
    os.chmod(path, 0o600)
    path.write_text(plaintext + "\n")
    return plaintext


OPERATOR_EMAIL = f"operator@{SANDBOX_DOMAIN}"


async def first_operator(settings: Settings) -> list[str]:
    """The first platform operator (docs/operator.md), while the staff allowlist is empty: an
    identity user ``operator@<sandbox domain>`` with a generated password (its address counted as
    verified: nobody else can own it), allowlisted by user id. Lines for the operator, the password
    shown once; nothing once anyone is staff, or when that user exists already (then
    `herald staff add` says who is)."""
    import secrets
    from datetime import datetime, timezone

    from tortoise.transactions import in_transaction

    from app.identity.password.service import hash_password
    from app.platform.staff.service import CLI, add_staff
    from models.identity.users import User
    from models.platform.staff import StaffMember

    await Tortoise.init(config=tortoise_config(settings, ["platform", "identity"], pool_max=2),
                        _enable_global_fallback=True)
    try:
        if await StaffMember.all().exists() or await User.filter(email_key=OPERATOR_EMAIL).exists():
            return []
        password = secrets.token_urlsafe(18)
        user = await User.create(public_id=f"usr_{secrets.token_hex(12)}", email=OPERATOR_EMAIL,
                                 email_key=OPERATOR_EMAIL, name="Operator",
                                 password_hash=await hash_password(password),
                                 email_verified_at=datetime.now(timezone.utc))
        async with in_transaction("platform") as conn:
            await add_staff(conn, user.public_id, CLI)
    finally:
        await Tortoise.close_connections()
    platform = settings.url_of("platform")
    return [
        f"First operator (platform staff; the password is shown once): {OPERATOR_EMAIL}  {password}",
        f"  sign in: POST {platform}/api/auth/login {{\"email\", \"password\"}}, then GET {platform}/api/admin/me",
        f"  staff need a second factor: turn on an authenticator app (POST {platform}/api/auth/2fa/setup, then "
        "/verify) before /api/admin answers (else 403 SecondFactorRequired)",
        "  more staff: herald staff add <usr_... or e-mail>",
    ]


async def reset_operator_password() -> dict:
    """A new generated password for the first operator (``operator@<sandbox domain>``), as
    ``herald credentials reset --operator`` issues it: every session of that user ends, and the
    change goes into its security trail. Second factors, if it has any, stay. The ORM must be
    initialised on the platform and identity databases; :class:`NotFound` when there is no such user
    (``herald up`` makes it only while nobody is staff)."""
    import secrets

    from tortoise.expressions import Q

    from app.http.errors import NotFound
    from app.identity.password.service import hash_password
    from app.identity.session.service import revoke_all
    from models.identity.events import EventKind, record
    from models.identity.sessions import Session
    from models.identity.users import User
    from models.platform.staff import StaffMember

    user = await User.get_or_none(email_key=OPERATOR_EMAIL)
    if user is None:
        raise NotFound(f"there is no first operator {OPERATOR_EMAIL} (herald up makes one only while nobody is "
                       "staff); `herald staff list` shows who is")
    password = secrets.token_urlsafe(18)
    hashed = await hash_password(password)
    async with in_transaction("identity") as conn:
        ended = await Session.filter(user_id=user.id, revoked_at=None).using_db(conn).count()
        await User.filter(id=user.id).using_db(conn).update(password_hash=hashed)
        await revoke_all(conn, user)
        await record(conn, user.id, EventKind.PASSWORD_RESET, sessions_revoked=True, by="herald credentials reset")
    staff = await StaffMember.filter(Q(user_id=user.public_id) | Q(email=OPERATOR_EMAIL)).exists()
    return {"Email": OPERATOR_EMAIL, "UserId": user.public_id, "Password": password, "SessionsEnded": ended,
            "Staff": staff}
