"""Operator commands on tenants and keys; each prints one JSON object on stdout.

    herald tenant create --name N [--slug S] [--parent acc_...] [--quota Q] [--plan P]
    herald tenant list [--search TEXT]
    herald tenant suspend|activate acc_...
    herald key create --tenant acc_... --scopes a,b --name N [--test | --master | --publishable]
    herald key list acc_... [--active]          (each key's prefix, never the key)
    herald key revoke key_...
    herald tenant claim-domain|release-domain acc_... example.com
    herald flags list acc_...
    herald flags set acc_... NAME on|off|default
    herald staff add|remove usr_...|person@example.com
    herald staff list

A refusal (an error of app/http/errors.py) is one line on stderr and exit 1; so is a platform
database that cannot be reached. A command that ran but did not get what was asked (a domain whose
DNS does not verify) prints its result on stdout, says why on stderr and exits 1 too (:class:`Unmet`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Awaitable, Callable, Iterable

from tortoise import Tortoise, connections
from tortoise.exceptions import DBConnectionError

from app.http.errors import HttpError
from app.platform.api_key.service import create_key, revoke_key, tenant_keys
from app.platform.flag.service import account_flags, set_flag
from app.platform.registration.service import claim_domain, release_domain
from app.platform.staff.service import CLI, add_staff, list_staff, remove_staff
from app.platform.support.service import accounts
from app.platform.tenant.service import create_tenant, set_tenant_status, tenant_by_id
from tortoise.transactions import in_transaction
from kit.errors import exit_on_config_error
from kit.settings import get_settings
from kit.timestamps import iso
from models import tortoise_config
from models.platform.api_key import ApiKey, KeyKind
from models.platform.tenant import Tenant, TenantStatus


def tenant_json(tenant: Tenant) -> dict:
    return {"TenantId": tenant.public_id, "Name": tenant.name, "Slug": tenant.slug, "Status": tenant.status,
            "MonthlyQuota": tenant.monthly_quota, "EffectiveQuota": tenant.effective_quota, "Plan": tenant.plan,
            "PurgeContent": tenant.purge_content}


class Unmet(Exception):
    """The command ran, but what was asked did not happen (a domain whose DNS does not verify):
    ``result`` still goes to stdout, ``reason`` to stderr, and the exit code is 1."""

    def __init__(self, result: dict, reason: str):
        super().__init__(reason)
        self.result = result


def run_operation(operation: Callable[[], Awaitable[dict]], systems: Iterable[str] = ("platform",)) -> int:
    """Run one operator command against the systems' databases (the platform's by default): its
    result as one JSON object on stdout (exit 0), or a refusal (any error of the one hierarchy,
    app/http/errors.py, that the services raise) or a database out of reach as one line on stderr
    (exit 1), or an :class:`Unmet` result on stdout and its reason on stderr (exit 1)."""
    with exit_on_config_error():
        config = tortoise_config(get_settings(), list(systems), pool_max=2)

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
    except Unmet as unmet:
        print(json.dumps(unmet.result, default=str))
        print(f"herald: {unmet}", file=sys.stderr)
        return 1
    except (OSError, DBConnectionError) as error:  # the server is down, or the URL points nowhere
        print(f"herald: the database cannot be reached: {error}", file=sys.stderr)
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
    if args.action == "list":
        async def operation() -> dict:
            rows = await accounts(connections.get("platform"), args.search).order_by("id")
            return {"Tenants": [tenant_json(row) for row in rows]}
    elif args.action == "create":
        async def operation() -> dict:
            tenant = await create_tenant(args.name, args.slug, args.parent, args.quota, args.plan or "",
                                         purge_content=args.purge_content)
            return tenant_json(tenant)
    else:
        status = TenantStatus.SUSPENDED if args.action == "suspend" else TenantStatus.ACTIVE

        async def operation() -> dict:
            return tenant_json(await set_tenant_status(args.tenant_id, status))
    return run_operation(operation)


def key_json(key: ApiKey) -> dict:
    """A key as a list shows it: its prefix (``hint``, the kind and 4 hex digits), never more."""
    return {"KeyId": key.public_id, "Name": key.name, "Prefix": key.hint, "Mode": key.mode,
            "Scopes": list(key.scopes or ()), "CreatedAt": iso(key.created_at), "LastUsedAt": iso(key.last_used_at),
            "RevokedAt": iso(key.revoked_at)}


def cmd_key(args: argparse.Namespace) -> int:
    if args.action == "create":
        kind = KeyKind.TEST if args.test else KeyKind.MASTER if args.master else \
            KeyKind.PUBLISHABLE if args.publishable else KeyKind.LIVE
        scopes = [scope for scope in (args.scopes or "").split(",")]

        async def operation() -> dict:
            key, plaintext = await create_key(args.tenant, args.name, scopes, kind)
            return {"KeyId": key.public_id, "Key": plaintext, "Scopes": key.scopes, "Mode": key.mode}
    elif args.action == "list":
        async def operation() -> dict:
            tenant = await tenant_by_id(args.tenant_id)
            rows = tenant_keys(connections.get("platform"), tenant.id)
            if args.active:
                rows = rows.filter(revoked_at=None)
            return {"TenantId": tenant.public_id, "Keys": [key_json(row) for row in await rows.order_by("id")]}
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
    tenant = commands.add_parser("tenant", help="create, list, suspend or activate tenants")
    actions = tenant.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="every tenant, oldest first")
    listing.add_argument("--search", help="only tenants whose id, name or slug contains this")
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

    key = commands.add_parser("key", help="create, list or revoke API keys")
    actions = key.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create")
    create.add_argument("--tenant", required=True)
    create.add_argument("--scopes", default="", help="comma-separated, from the scope catalog")
    create.add_argument("--name", required=True)
    kinds = create.add_mutually_exclusive_group()
    kinds.add_argument("--test", action="store_true", help="sk_test_ key: whole pipeline, sink delivery only")
    kinds.add_argument("--master", action="store_true", help="sk_master_ key (relay admin)")
    kinds.add_argument("--publishable", action="store_true", help="pk_live_ key (client-side, read-only)")
    listing = actions.add_parser("list", help="a tenant's keys, by prefix (the keys themselves are never stored)")
    listing.add_argument("tenant_id")
    listing.add_argument("--active", action="store_true", help="leave out revoked keys")
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
