"""``herald credentials reset``: new start-up credentials, for the operator who lost the ones the
first ``herald up`` printed. Herald never stores them in a form it could show again (a password is
a bcrypt hash, a key its SHA-256), so it issues new ones and prints them once, as one JSON object.

    herald credentials reset --operator     a new password for the first operator; its sessions end
    herald credentials reset --demo-key     a new test key for the demo tenant; the old demo keys are revoked

Both flags may be given together. What they issue is made the way the first start makes it
(herald/bootstrap.py).
"""

from __future__ import annotations

import argparse
import sys

from herald.admin import run_operation


def cmd_credentials(args: argparse.Namespace) -> int:
    from app.http.errors import NotFound
    from herald.bootstrap import DEMO_SLUG, issue_demo_key, reset_operator_password
    from models.platform.tenant import Tenant

    if not (args.operator or args.demo_key):
        print("herald: credentials reset: say what to issue: --operator, --demo-key or both", file=sys.stderr)
        return 2

    async def operation() -> dict:
        # Every refusal comes before anything is issued: a credential issued and then not printed
        # (the command failing half-way) would be lost, and the old one already gone.
        tenant = await Tenant.get_or_none(slug=DEMO_SLUG) if args.demo_key else None
        if args.demo_key and tenant is None:  # a production platform need not have one: none is made here
            raise NotFound(f"there is no demo tenant (slug {DEMO_SLUG}); herald up makes it on its first start")
        result: dict = {}
        if args.operator:  # refuses (no such user) before it changes anything
            result["Operator"] = await reset_operator_password()
        if tenant is not None:
            key, plaintext, revoked = await issue_demo_key(tenant)
            result["DemoKey"] = {"TenantId": tenant.public_id, "KeyId": key.public_id, "Key": plaintext,
                                 "Scopes": key.scopes, "Mode": key.mode, "Revoked": revoked}
        return result

    systems = ("platform", "identity") if args.operator else ("platform",)
    return run_operation(operation, systems)


def add_parsers(commands: argparse._SubParsersAction) -> None:
    credentials = commands.add_parser("credentials", help="issue new start-up credentials (printed once)")
    actions = credentials.add_subparsers(dest="action", required=True)
    reset = actions.add_parser("reset", help="a new first-operator password and/or a new demo key; "
                                             "the old ones stop working")
    reset.add_argument("--operator", action="store_true",
                       help="a new password for the first operator (its sessions end)")
    reset.add_argument("--demo-key", action="store_true",
                       help="a new test key for the demo tenant (the old demo keys are revoked)")
    credentials.set_defaults(func=cmd_credentials)
