"""``herald keys``: rotating SECRET_KEY (docs/operations.md, "Rotating SECRET_KEY").

    herald keys reseal [SYSTEM ...]   every sealed value under an older key of SECRET_KEY sealed again
                                      under the newest (the first listed); the CRM's lookup indexes too
    herald keys check [SYSTEM ...]    how many values are still under an older key; writes nothing

Both walk every table of herald/sealed.py's catalogue (all systems by default), print one line per
table on stderr as they go and one JSON object of the counts on stdout. ``check`` exits 1 while a
value is under an older key or opens under none (the old key cannot leave the list yet); ``reseal``
exits 1 when a value opens under no listed key, or a contact's recomputed index is another
contact's: those rows are named (``UnreadableIds``, ``ConflictIds``) and left as they were. A row
written by Herald between the read and the write (``Changed``) keeps what was written: its new
value is sealed under the newest key already, which ``check`` confirms.
"""

from __future__ import annotations

import argparse
import sys

from kit.config_values import ConfigError
from kit.errors import exit_on_config_error
from kit.settings import get_settings


def cmd_keys(args: argparse.Namespace) -> int:
    from tortoise import connections

    from herald.admin import Unmet, run_operation
    from herald.sealed import CATALOGUE, walk

    check = args.action == "check"
    with exit_on_config_error():
        for name in args.systems:
            if name not in CATALOGUE:
                raise ConfigError("system", f"{name} keeps nothing sealed; one of {', '.join(CATALOGUE)}")
        keys = len(get_settings().require_secret_keys())
    systems = args.systems or list(CATALOGUE)

    async def operation() -> dict:
        result: dict = {"Keys": keys, "Systems": {}}
        older = unreadable = conflicts = 0
        for system in systems:
            conn = connections.get(system)
            tables = result["Systems"][system] = {}
            for sealed in CATALOGUE[system]:
                counts = await walk(conn, sealed, check=check)
                tables[sealed.table] = counts.as_json(check)
                older += counts.resealed
                unreadable += counts.unreadable
                conflicts += counts.conflicts
                print(f"herald: keys {args.action}: {system}.{sealed.table}: "
                      f"{counts.resealed} {'under an older key' if check else 'resealed'}, "
                      f"{counts.current} current, {counts.unreadable} unreadable"
                      + ("" if check else f", {counts.changed} changed meanwhile, {counts.conflicts} conflicts"),
                      file=sys.stderr, flush=True)
        result["OlderKey" if check else "Resealed"] = older
        result["Unreadable"] = unreadable
        if not check:
            result["Conflicts"] = conflicts
        if check and (older or unreadable):
            raise Unmet(result, f"{older} values are still under an older key and {unreadable} open under no key: "
                                "keep every key listed (run `herald keys reseal`)")
        if not check and unreadable:
            raise Unmet(result, f"{unreadable} values open under no key of SECRET_KEY (their rows are listed in "
                                "UnreadableIds); they were left as they were")
        if not check and conflicts:
            raise Unmet(result, f"{conflicts} contacts' recomputed lookup indexes are held by another contact (rows "
                                "in ConflictIds); they were left as they were")
        return result

    return run_operation(operation, systems)


def add_parsers(commands: argparse._SubParsersAction) -> None:
    keys = commands.add_parser("keys", help="rotate SECRET_KEY: reseal values under its newest key, or check")
    actions = keys.add_subparsers(dest="action", required=True)
    for action, text in (("reseal", "seal every value under an older key of SECRET_KEY again under the newest "
                                    "(and recompute the CRM's lookup indexes)"),
                         ("check", "count the values still under an older key; writes nothing (exit 1 while any)")):
        parser = actions.add_parser(action, help=text)
        parser.add_argument("systems", nargs="*", metavar="SYSTEM", help="default: every system that seals values")
    keys.set_defaults(func=cmd_keys)
