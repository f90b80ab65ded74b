"""``herald``: the command line.

    herald up                     everything on one machine (embedded PostgreSQL and Redis by default)
    herald migrate [SYSTEM ...]   create the databases and apply the committed migrations
    herald migrate --check        exit 1, printing what differs, when models and migrations differ
    herald makemigrations SYSTEM  write a new migration from model changes (development)
    herald serve SYSTEM           one HTTP system (production role)
    herald worker                 the Dramatiq workers (production role)
    herald scheduler              the scheduler and outbox relay (production role)
    herald consume                the stream consumer: runtime analytics and the request log (worker role)
    herald smtpd                  Herald's SMTP server: submission and receiving (docs/smtp.md)
    herald tenant ... / key ... / flags ... / staff ...   operator commands (see herald/admin.py)
    herald domain ... / provider ...                      sending set-up (see herald/domains.py)
    herald credentials reset --operator | --demo-key      new start-up credentials (herald/credentials.py)
    herald keys reseal | check [SYSTEM ...]               rotating SECRET_KEY (herald/keys.py)

Every command but ``up`` run without a database in its environment uses the stack that
``herald up`` is running under ./var/ (herald/stack.py), or says that none is running.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from kit.errors import exit_on_config_error
from herald.roles import consume_argv, scheduler_argv, serve_argv, serve_env, smtpd_argv, worker_argv
from kit.config_values import ConfigError
from kit.settings import get_settings, system_by_name
from herald.stack import NoStack, use_running_stack
from kit.systems import DATA_SYSTEMS, SYSTEMS

SYSTEM_NAMES = [system.name for system in SYSTEMS]


def cmd_up(args: argparse.Namespace) -> int:
    from herald.up import up

    return up()


def cmd_migrate(args: argparse.Namespace) -> int:
    from herald.database import migrate

    with exit_on_config_error():
        settings = get_settings()
        systems = args.systems or [system.name for system in DATA_SYSTEMS]
        for name in systems:
            if not system_by_name(name).database:
                raise ConfigError("system", f"{name} has no database of its own: nothing to migrate")
            settings.database_url_for(name)

    if args.check:
        from herald.migrations import check

        return asyncio.run(check(settings, systems, sys.stdout))

    def report(event: str, app_label: str, name: str) -> None:
        print(f"{event} {app_label}.{name}", flush=True)

    asyncio.run(migrate(settings, systems, report=report))
    print("migrations applied: " + ", ".join(systems))
    return 0


def cmd_makemigrations(args: argparse.Namespace) -> int:
    from herald.migrations import makemigrations

    with exit_on_config_error():
        system_by_name(args.system)
        settings = get_settings()
    return asyncio.run(makemigrations(settings, args.system, name=args.name, empty=args.empty))


def cmd_serve(args: argparse.Namespace) -> int:
    with exit_on_config_error():
        settings = get_settings()
        system = system_by_name(args.system)
    port = args.port or settings.ports[system.name]
    workers = args.workers or settings.http_workers
    argv = serve_argv(system.name, args.host or settings.host, port, workers)
    os.execve(argv[0], argv, serve_env(settings.var_dir, system.name, workers))


def cmd_worker(args: argparse.Namespace) -> int:
    with exit_on_config_error():
        settings = get_settings()
    argv = worker_argv(args.processes or settings.worker_processes, args.threads or settings.worker_threads,
                       args.queues)
    os.execve(argv[0], argv, {**os.environ, **settings.worker_env()})


def cmd_scheduler(args: argparse.Namespace) -> int:
    argv = scheduler_argv()
    os.execv(argv[0], argv)


def cmd_consume(args: argparse.Namespace) -> int:
    argv = consume_argv(["--batch", str(args.batch), "--claim-idle-ms", str(args.claim_idle_ms),
                         "--concurrency", str(args.concurrency), "--kinds", args.kinds])
    os.execv(argv[0], argv)


def cmd_smtpd(args: argparse.Namespace) -> int:
    argv = smtpd_argv()
    os.execv(argv[0], argv)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="herald", description="Herald messaging platform")
    commands = parser.add_subparsers(dest="command", required=True)

    up = commands.add_parser("up", help="run everything on this machine")
    up.set_defaults(func=cmd_up)

    migrate = commands.add_parser("migrate", help="create databases and apply migrations")
    migrate.add_argument("systems", nargs="*", metavar="SYSTEM", help="one of: " + ", ".join(SYSTEM_NAMES))
    migrate.add_argument("--check", action="store_true",
                         help="apply nothing: exit 1, printing what differs, when the models and the committed "
                              "migrations differ (no connection is opened)")
    migrate.set_defaults(func=cmd_migrate)

    make = commands.add_parser("makemigrations", help="write a migration from model changes")
    make.add_argument("system", choices=SYSTEM_NAMES)
    make.add_argument("--name", default=None)
    make.add_argument("--empty", action="store_true")
    make.set_defaults(func=cmd_makemigrations)

    serve = commands.add_parser("serve", help="run one HTTP system")
    serve.add_argument("system", choices=SYSTEM_NAMES)
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--workers", type=int)
    serve.set_defaults(func=cmd_serve)

    worker = commands.add_parser("worker", help="run the Dramatiq workers")
    worker.add_argument("--processes", type=int)
    worker.add_argument("--threads", type=int)
    worker.add_argument("--queues", nargs="+")
    worker.set_defaults(func=cmd_worker)

    scheduler = commands.add_parser("scheduler", help="run the scheduler and outbox relay")
    scheduler.set_defaults(func=cmd_scheduler)

    consume = commands.add_parser("consume", help="run the stream consumer: the runtime's analytics and the "
                                                  "platform's request log (worker role)")
    consume.add_argument("--batch", type=int, default=500)
    consume.add_argument("--claim-idle-ms", type=int, default=60_000)
    consume.add_argument("--concurrency", type=int, default=2,
                         help="loops of the runtime's kind in the process (default 2)")
    consume.add_argument("--kinds", default="runtime,request-log",
                         help="stream kinds to read, comma separated (default runtime,request-log)")
    consume.set_defaults(func=cmd_consume)

    smtpd = commands.add_parser("smtpd", help="run Herald's SMTP server: submission and receiving")
    smtpd.set_defaults(func=cmd_smtpd)

    from herald import admin

    admin.add_parsers(commands)
    from herald import domains

    domains.add_parsers(commands)
    from herald import credentials

    credentials.add_parsers(commands)
    from herald import keys

    keys.add_parsers(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command != "up":  # `herald up` is the stack; every other command may use a running one
        try:
            use_running_stack(os.environ)
        except NoStack as error:
            if not (args.command == "smtpd" and os.environ.get("REDIS_URL")):  # smtpd has no database
                print(f"herald: {error}", file=sys.stderr, flush=True)
                return 2
        get_settings.cache_clear()
    return args.func(args) or 0


if __name__ == "__main__":
    raise SystemExit(main())
