"""Operator commands for sending set-up; each prints one JSON object on stdout.

    herald domain add --tenant acc_... NAME [--dmarc]     DKIM key pair + the DNS records to publish
    herald domain verify --tenant acc_... NAME            check DNS now (DNS_NAMESERVERS), record the attempt
    herald domain list --tenant acc_...
    herald provider set --tenant acc_... --channel C --key K [--settings JSON] [--secrets JSON]
    herald provider list --tenant acc_...                 (secrets are never printed)

``provider set`` for ``webpush`` without a ``vapid_private_key`` generates the tenant's VAPID pair
and prints its public key (the browser's applicationServerKey).
"""

from __future__ import annotations

import argparse
import json
from typing import Awaitable, Callable

from herald.settings import get_settings


class CommandError(Exception):
    pass


def _run(operation: Callable[[], Awaitable[dict]]) -> int:
    from herald.admin import run_operation
    from models.platform.domain import DomainError

    return run_operation(operation, (CommandError, DomainError))


async def _tenant_pk(tenant_id: str) -> int:
    from models.platform.tenant import Tenant

    tenant = await Tenant.get_or_none(public_id=tenant_id)
    if tenant is None:
        raise CommandError(f"no tenant {tenant_id}")
    return tenant.id


def domain_json(domain, with_records: bool = True) -> dict:
    from models.platform.domain import dns_records

    body = {"Name": domain.name, "Verified": domain.verified, "DnsStatus": domain.dns_status,
            "State": domain.state().value, "DkimSelector": domain.dkim_selector,
            "VerifiedAt": domain.verified_at, "CheckedAt": domain.checked_at,
            "UnreachableSince": domain.unreachable_since}
    if with_records and domain.dkim_public_key:
        body["Records"] = dns_records(domain, get_settings().mail_domain)
    return body


def cmd_domain(args: argparse.Namespace) -> int:
    from models.platform.domain import SenderDomain, add_sender_domain, normalise_domain

    async def find(tenant_pk: int) -> SenderDomain:
        domain = await SenderDomain.get_or_none(tenant_id=tenant_pk, name=normalise_domain(args.name))
        if domain is None:
            raise CommandError(f"no domain {args.name} on {args.tenant}; add it first")
        return domain

    if args.action == "add":
        async def operation() -> dict:
            domain = await add_sender_domain(await _tenant_pk(args.tenant), args.name, dmarc=args.dmarc)
            return {"Domain": domain_json(domain)}
    elif args.action == "verify":
        async def operation() -> dict:
            from models.platform.dns_check import check_domain

            domain = await find(await _tenant_pk(args.tenant))
            if not domain.dkim_public_key:
                raise CommandError(f"{domain.name} has no DKIM key and cannot be verified by DNS")
            settings = get_settings()
            check = await check_domain(domain, nameservers=settings.dns_nameservers,
                                       mail_domain=settings.mail_domain)
            return {"Domain": domain_json(domain, with_records=False), "Outcome": check.outcome,
                    "Records": check.detail["Records"]}
    else:
        async def operation() -> dict:
            rows = await SenderDomain.filter(tenant_id=await _tenant_pk(args.tenant)).order_by("name")
            return {"Domains": [domain_json(row, with_records=False) for row in rows]}
    return _run(operation)


def cmd_provider(args: argparse.Namespace) -> int:
    from models.platform.provider_config import ProviderConfig, set_provider_config

    if args.action == "set":
        def parse(raw: str | None, name: str) -> dict:
            try:
                value = json.loads(raw) if raw else {}
            except ValueError:
                raise CommandError(f"--{name} is not valid JSON") from None
            if not isinstance(value, dict):
                raise CommandError(f"--{name} must be a JSON object")
            return value

        async def operation() -> dict:
            from providers.registry import discover

            settings, secrets = parse(args.settings, "settings"), parse(args.secrets, "secrets")
            if args.key not in discover().get(args.channel, {}):
                raise CommandError(f"{args.key!r} is not an installed {args.channel} provider")
            result: dict = {}
            if args.key == "webpush" and "vapid_private_key" not in secrets:
                from providers.webpush import generate_vapid_keys

                secrets["vapid_private_key"], settings["vapid_public_key"] = generate_vapid_keys()
                result["VapidPublicKey"] = settings["vapid_public_key"]
            row = await set_provider_config(await _tenant_pk(args.tenant), args.channel, args.key, settings, secrets)
            return {"Channel": row.channel, "Key": row.key, "Settings": row.settings,
                    "Secrets": sorted(secrets), **result}
    else:
        async def operation() -> dict:
            rows = await ProviderConfig.filter(tenant_id=await _tenant_pk(args.tenant)).order_by("channel", "key")
            return {"Providers": [{"Channel": row.channel, "Key": row.key, "Settings": row.settings,
                                   "UpdatedAt": row.updated_at} for row in rows]}
    return _run(operation)


def add_parsers(commands) -> None:
    domain = commands.add_parser("domain", help="sender domains: add, verify against DNS, list")
    domain_actions = domain.add_subparsers(dest="action", required=True)
    add = domain_actions.add_parser("add", help="add a domain; prints the DNS records to publish")
    add.add_argument("name")
    add.add_argument("--tenant", required=True)
    add.add_argument("--dmarc", action="store_true", help="also publish (and report) a DMARC record")
    verify = domain_actions.add_parser("verify", help="check the domain's DNS records now")
    verify.add_argument("name")
    verify.add_argument("--tenant", required=True)
    listing = domain_actions.add_parser("list", help="the tenant's sender domains")
    listing.add_argument("--tenant", required=True)
    domain.set_defaults(func=cmd_domain)

    provider = commands.add_parser("provider", help="per-tenant provider configuration")
    provider_actions = provider.add_subparsers(dest="action", required=True)
    put = provider_actions.add_parser("set", help="create or replace the tenant's configuration of a provider")
    put.add_argument("--tenant", required=True)
    put.add_argument("--channel", required=True, choices=["email", "sms", "push", "whatsapp"])
    put.add_argument("--key", required=True, help="the provider's entry-point name, e.g. smtp, twilio, fcm")
    put.add_argument("--settings", help="JSON object of non-secret settings")
    put.add_argument("--secrets", help="JSON object of secrets (stored encrypted)")
    provider_list = provider_actions.add_parser("list", help="the tenant's provider configurations")
    provider_list.add_argument("--tenant", required=True)
    provider.set_defaults(func=cmd_provider)
