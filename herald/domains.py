"""Operator commands for sending set-up; each prints one JSON object on stdout.

    herald domain add --tenant acc_... NAME [--dmarc]     DKIM key pair + the DNS records to publish
    herald domain verify --tenant acc_... NAME            check DNS now (DNS_NAMESERVERS), record the attempt;
                                                          exit 1 unless the outcome is "verified"
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

from app.http.errors import BadRequest
from kit.settings import get_settings
from kit.timestamps import iso


class CommandError(BadRequest):
    """A command line that cannot be carried out as given (a malformed option, a provider not installed)."""


def _run(operation: Callable[[], Awaitable[dict]]) -> int:
    from herald.admin import run_operation

    return run_operation(operation)


def domain_json(domain, with_records: bool = True) -> dict:
    from models.platform.domain import dns_records

    body = {"Name": domain.name, "Verified": domain.verified, "DnsStatus": domain.dns_status,
            "State": domain.state().value, "DkimSelector": domain.dkim_selector,
            "VerifiedAt": iso(domain.verified_at), "CheckedAt": iso(domain.checked_at),
            "UnreachableSince": iso(domain.unreachable_since)}
    if with_records and domain.dkim_public_key:
        body["Records"] = dns_records(domain, get_settings().mail_domain)
    return body


def _missing(check) -> str:
    """What kept a check from verifying, from its recorded records."""
    if check.detail.get("OwnedElsewhere"):
        return "another account has verified this domain"
    missing = [f"{record['Purpose']} {record.get('Reason') or 'not found'}" for record in check.detail["Records"]
               if record["Required"] and not record["Found"]]
    return "; ".join(missing) or "no required record found"


def cmd_domain(args: argparse.Namespace) -> int:
    from app.platform.domain import service
    from app.platform.tenant.service import tenant_by_id
    from herald.admin import Unmet
    from models.platform.domain import CheckOutcome

    if args.action == "add":
        async def operation() -> dict:
            tenant = await tenant_by_id(args.tenant)
            return {"Domain": domain_json(await service.add_sender_domain(tenant.id, args.name, dmarc=args.dmarc))}
    elif args.action == "verify":
        async def operation() -> dict:
            settings = get_settings()
            domain, check = await service.verify_domain(await tenant_by_id(args.tenant), args.name,
                                                        nameservers=settings.dns_nameservers,
                                                        mail_domain=settings.mail_domain)
            result = {"Domain": domain_json(domain, with_records=False), "Outcome": check.outcome,
                      "Records": check.detail["Records"]}
            if check.outcome != CheckOutcome.VERIFIED:  # a script's `&&` must not go on to send
                raise Unmet(result, f"{domain.name} is not verified ({check.outcome}): {_missing(check)}")
            return result
    else:
        async def operation() -> dict:
            rows = await service.list_domains(await tenant_by_id(args.tenant))
            return {"Domains": [domain_json(row, with_records=False) for row in rows]}
    return _run(operation)


def cmd_provider(args: argparse.Namespace) -> int:
    from app.platform.tenant.service import tenant_by_id
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
            tenant = await tenant_by_id(args.tenant)
            row = await set_provider_config(tenant.id, args.channel, args.key, settings, secrets)
            return {"Channel": row.channel, "Key": row.key, "Settings": row.settings,
                    "Secrets": sorted(secrets), **result}
    else:
        async def operation() -> dict:
            tenant = await tenant_by_id(args.tenant)
            rows = await ProviderConfig.filter(tenant_id=tenant.id).order_by("channel", "key")
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
