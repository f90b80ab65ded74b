"""Operator commands on tenants and keys; each prints one JSON object on stdout.

    herald tenant create --name N [--slug S] [--parent acc_...] [--quota Q] [--plan P]
    herald tenant suspend|activate acc_...
    herald key create --tenant acc_... --scopes a,b --name N [--test | --master | --publishable]
    herald key revoke key_...
    herald tenant claim-domain|release-domain acc_... example.com
    herald flags list acc_...
    herald flags set acc_... NAME on|off|default
    herald staff add|remove usr_...|person@example.com
    herald staff list
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Awaitable, Callable

from tortoise import Tortoise

from app.http.errors import HttpError
from app.platform.api_key.service import create_key, revoke_key
from app.platform.flag.service import account_flags, set_flag
from app.platform.registration.service import claim_domain, release_domain
from app.platform.staff.service import CLI, add_staff, list_staff, remove_staff
from app.platform.tenant.service import create_tenant, set_tenant_status
from tortoise.transactions import in_transaction
from kit.errors import exit_on_config_error
from kit.settings import get_settings
from models import tortoise_config
from models.platform.api_key import KeyKind
from models.platform.tenant import Tenant, TenantStatus


def tenant_json(tenant: Tenant) -> dict:
    return {"TenantId": tenant.public_id, "Name": tenant.name, "Slug": tenant.slug, "Status": tenant.status,
            "MonthlyQuota": tenant.monthly_quota, "EffectiveQuota": tenant.effective_quota, "Plan": tenant.plan,
            "PurgeContent": tenant.purge_content}


def run_operation(operation: Callable[[], Awaitable[dict]]) -> int:
    """Run one operator command against the platform database: its result as one JSON object on
    stdout (exit 0), or a refusal (any error of the one hierarchy, app/http/errors.py, that the
    services raise) as one line on stderr (exit 1)."""
    with exit_on_config_error():
        config = tortoise_config(get_settings(), ["platform"], pool_max=2)

    async def main() -> dict:
        await Tortoise.init(config=config, _enable_global_fallback=True)
        try:
            return await operation()
        finally:
            await Tortoise.close_connections()

    try:
        with exit_on_config_error():  # e.g. SECRET_KEY, needed only once a secret is sealed
            result = asyncio.run(main())
    except HttpError as error:
        print(f"herald: {error}", file=sys.stderr)
        return 1
    print(json.dumps(result, default=str))
    return 0


def cmd_tenant(args: argparse.Namespace) -> int:
    if args.action in ("claim-domain", "release-domain"):
        async def operation() -> dict:
            if args.action == "claim-domain":
                claim = await claim_domain(args.tenant_id, args.domain)
                return {"TenantId": args.tenant_id, "Domain": claim.domain, "Claimed": True}
            return {"TenantId": args.tenant_id, "Domain": args.domain,
                    "Released": await release_domain(args.tenant_id, args.domain)}
        return run_operation(operation)
    if args.action == "create":
        async def operation() -> dict:
            tenant = await create_tenant(args.name, args.slug, args.parent, args.quota, args.plan or "",
                                         purge_content=args.purge_content)
            return tenant_json(tenant)
    else:
        status = TenantStatus.SUSPENDED if args.action == "suspend" else TenantStatus.ACTIVE

        async def operation() -> dict:
            return tenant_json(await set_tenant_status(args.tenant_id, status))
    return run_operation(operation)


def cmd_key(args: argparse.Namespace) -> int:
    if args.action == "create":
        kind = KeyKind.TEST if args.test else KeyKind.MASTER if args.master else \
            KeyKind.PUBLISHABLE if args.publishable else KeyKind.LIVE
        scopes = [scope for scope in (args.scopes or "").split(",")]

        async def operation() -> dict:
            key, plaintext = await create_key(args.tenant, args.name, scopes, kind)
            return {"KeyId": key.public_id, "Key": plaintext, "Scopes": key.scopes, "Mode": key.mode}
    else:
        async def operation() -> dict:
            key = await revoke_key(args.key_id)
            return {"KeyId": key.public_id, "Revoked": True}
    return run_operation(operation)


def cmd_flags(args: argparse.Namespace) -> int:
    async def operation() -> dict:
        if args.action == "list":
            flags = await account_flags(args.tenant_id)
        else:
            enabled = {"on": True, "off": False, "default": None}[args.value]
            flags = await set_flag(args.tenant_id, args.name, enabled)
        return {"TenantId": args.tenant_id, "Flags": flags}
    return run_operation(operation)


def staff_json(entry) -> dict:
    return {"UserId": entry.user_id, "Email": entry.email, "AddedBy": entry.added_by,
            "CreatedAt": entry.created_at.isoformat() if entry.created_at else None}


def cmd_staff(args: argparse.Namespace) -> int:
    """The platform staff allowlist (docs/operator.md): who may use /api/admin."""
    async def operation() -> dict:
        async with in_transaction("platform") as conn:
            if args.action == "add":
                return {"Staff": staff_json(await add_staff(conn, args.who, CLI))}
            if args.action == "remove":
                return {"Who": args.who, "Removed": await remove_staff(conn, args.who, CLI)}
            return {"Staff": [staff_json(entry) for entry in await list_staff(conn)]}
    return run_operation(operation)


def add_parsers(commands: argparse._SubParsersAction) -> None:
    tenant = commands.add_parser("tenant", help="create, suspend or activate tenants")
    actions = tenant.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create")
    create.add_argument("--name", required=True)
    create.add_argument("--slug")
    create.add_argument("--parent", help="parent tenant id (acc_...)")
    create.add_argument("--quota", type=int, help="monthly quota; omit to inherit")
    create.add_argument("--plan")
    create.add_argument("--purge-content", action="store_true",
                        help="drop each message's content once it is sent or failed")
    for action in ("suspend", "activate"):
        actions.add_parser(action).add_argument("tenant_id")
    for action in ("claim-domain", "release-domain"):  # sign-ups from a claimed domain request access
        claim = actions.add_parser(action)
        claim.add_argument("tenant_id")
        claim.add_argument("domain")
    tenant.set_defaults(func=cmd_tenant)

    key = commands.add_parser("key", help="create or revoke API keys")
    actions = key.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create")
    create.add_argument("--tenant", required=True)
    create.add_argument("--scopes", default="", help="comma-separated, from the scope catalog")
    create.add_argument("--name", required=True)
    kinds = create.add_mutually_exclusive_group()
    kinds.add_argument("--test", action="store_true", help="sk_test_ key: whole pipeline, sink delivery only")
    kinds.add_argument("--master", action="store_true", help="sk_master_ key (relay admin)")
    kinds.add_argument("--publishable", action="store_true", help="pk_live_ key (client-side, read-only)")
    actions.add_parser("revoke").add_argument("key_id")
    key.set_defaults(func=cmd_key)

    flags = commands.add_parser("flags", help="list or set an account's feature flags")
    actions = flags.add_subparsers(dest="action", required=True)
    actions.add_parser("list").add_argument("tenant_id")
    setter = actions.add_parser("set")
    setter.add_argument("tenant_id")
    setter.add_argument("name")
    setter.add_argument("value", choices=("on", "off", "default"))
    flags.set_defaults(func=cmd_flags)

    staff = commands.add_parser("staff", help="the platform staff allowlist (/api/admin)")
    actions = staff.add_subparsers(dest="action", required=True)
    for action in ("add", "remove"):
        actions.add_parser(action).add_argument("who", help="identity user id (usr_...) or e-mail address")
    actions.add_parser("list")
    staff.set_defaults(func=cmd_staff)
