"""``herald up``: every process of Herald on one machine, as children of one command.

With no DATABASE_URL it runs a real embedded PostgreSQL, with no REDIS_URL a real embedded
Redis, both under ./var/ (HERALD_VAR_DIR) and kept between runs. Then it applies the
migrations, runs the first-start bootstrap, starts the HTTP systems, the workers and
the scheduler, and prints where everything listens. Ctrl-C or SIGTERM stops it all.

While it starts it says what it has done, one line a step on stdout (``progress``): the embedded
database initialised (first start) and ready, Redis ready, the migrations applied, each system
answering /readyz; then one summary with the addresses. Problems go to stderr (``say``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import signal
import sys
import time
from pathlib import Path

import httpx

from herald.roles import consume_argv, scheduler_argv, serve_argv, smtpd_argv, worker_argv
from herald.embedded import MAXMEMORY, EmbeddedError, EmbeddedPostgres, EmbeddedRedis
from kit import logs
from kit.errors import exit_on_config_error
from kit.settings import ConfigError, Settings, load_settings
from herald.stack import NoStack, Stack, remove_stack, running_stack, shown, write_stack
from herald.supervisor import Child, Supervisor, say
from kit.systems import CONSOLE, SYSTEMS


def _generated_secret(var_dir: Path, name: str) -> str:
    """A secret made on the first `herald up` and kept in ./var/ (mode 0600) for the next ones."""
    path = var_dir / name
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(48)
    path.touch(mode=0o600)
    path.write_text(key + "\n")
    return key


def _embedded_port(name: str, default: int) -> int:
    raw = os.environ.get(name) or str(default)
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ConfigError(name, f"must be a port number, got {raw!r}")
    return int(raw)


def _embedded_maxmemory() -> str:
    """EMBEDDED_REDIS_MAXMEMORY: bytes, or a number with kb, mb or gb (herald/embedded.py MAXMEMORY)."""
    raw = (os.environ.get("EMBEDDED_REDIS_MAXMEMORY") or MAXMEMORY).strip().lower()
    if not re.fullmatch(r"[1-9][0-9]{0,12}(kb|mb|gb)?", raw):
        raise ConfigError("EMBEDDED_REDIS_MAXMEMORY", f"must be bytes or a size such as 512mb, got {raw!r}")
    return raw


# How long the systems together get to answer /readyz before the summary says which did not; they
# keep starting (and are restarted if they crash) after it.
READY_SECONDS = 120.0


def progress(message: str) -> None:
    """One step of the start, for the person watching the terminal."""
    print(f"herald: {message}", flush=True)


def _degraded(answer: httpx.Response) -> str:
    """What a system that answers but runs degraded (app/http/health.py) lacks, as a suffix."""
    try:
        checks = answer.json().get("checks") or {}
    except (ValueError, AttributeError):
        return ""
    down = sorted(name for name, state in checks.items() if state != "ok")
    return f", degraded: {', '.join(down)} unavailable" if down else ""


def _wait_ready(settings: Settings, supervisor: Supervisor, started: float) -> list[str]:
    """Poll every system's /readyz until each answers 200, saying so as each does (in the order
    they become ready); the names of those that did not within READY_SECONDS."""
    pending = [system.name for system in SYSTEMS]
    deadline = time.monotonic() + READY_SECONDS
    with httpx.Client(timeout=1.0) as client:
        while pending and time.monotonic() < deadline and not supervisor.stopping:
            for name in list(pending):
                try:
                    answer = client.get(f"http://{settings.host}:{settings.ports[name]}/readyz")
                except httpx.HTTPError:
                    continue
                if answer.status_code == 200:
                    pending.remove(name)
                    progress(f"{name} ready{_degraded(answer)} ({time.monotonic() - started:.1f}s)")
            if pending:
                time.sleep(0.2)
    return pending


def up() -> int:
    started = time.monotonic()
    supervisor = Supervisor()
    supervisor.install_signal_handlers()
    env = dict(os.environ)
    with exit_on_config_error():
        settings = load_settings(env)
        # The supervisor's own lines: "herald: ..." on standard error (JSON lines with LOG_FORMAT=json);
        # each child writes its own, into its file under ./var/log/.
        logs.setup(settings, role="up", stream="stderr", text_format="herald: %(message)s")
        # The migrations and the first-start bootstrap run in this process: the ORM's own lines
        # ("Tortoise-ORM shutdown") are not what the terminal is for.
        logging.getLogger("tortoise").setLevel(logging.WARNING)
        var_dir = settings.var_dir
        # A second `herald up` on the same ./var/ would stop the first one's PostgreSQL as "stale".
        if running := _running_stack(var_dir):
            say(f"a stack is already running under {shown(var_dir)} (pid {running.pid}); "
                "stop it first, or set HERALD_VAR_DIR to start another", logging.ERROR)
            return 1
        var_dir.mkdir(parents=True, exist_ok=True)
        log_dir = var_dir / "log"
        log_dir.mkdir(exist_ok=True)
        try:
            if settings.embedded_database:
                postgres = EmbeddedPostgres(var_dir, _embedded_port("EMBEDDED_POSTGRES_PORT", 5433), settings.host)
                if postgres.prepare():
                    progress(f"embedded PostgreSQL initialised in {shown(postgres.data)} (first start)")
                command = postgres.command()
                supervisor.add(Child("postgres", command.argv, env, log=postgres.log, user=command.user,
                                     stop_signal=signal.SIGINT))
                postgres.wait_ready()
                env["DATABASE_URL"] = postgres.url
                progress(f"embedded PostgreSQL ready on {postgres.host}:{postgres.port}")
            if settings.embedded_redis:
                redis = EmbeddedRedis(var_dir, _embedded_port("EMBEDDED_REDIS_PORT", 6380), settings.host,
                                      _embedded_maxmemory())
                redis.prepare()
                supervisor.add(Child("redis", redis.command().argv, env, log=log_dir / "redis.out"))
                redis.wait_ready()
                env["REDIS_URL"] = redis.url
                progress(f"embedded Redis ready on {redis.host}:{redis.port}")
        except EmbeddedError as error:
            say(f"embedded services could not start: {error}", logging.ERROR)
            supervisor.stop_all()
            return 1
        if not settings.secret_key:
            env["SECRET_KEY"] = _generated_secret(var_dir, "secret_key")
        if not settings.service_token:
            env["SERVICE_TOKEN"] = _generated_secret(var_dir, "service_token")
        settings = load_settings(env)

    if supervisor.stopping:
        supervisor.stop_all()
        return 0
    try:
        notes, mail_key = _prepare_databases(settings)
    except Exception as error:  # noqa: BLE001 - say it in one line, stop what we started
        say(f"preparing the databases failed: {error!r}", logging.ERROR)
        supervisor.stop_all()
        return 1

    if mail_key:  # identity e-mail through the generated test key (docs/identity.md)
        from herald.bootstrap import IDENTITY_MAIL_FROM

        env["IDENTITY_MAIL_KEY"] = mail_key
        env["IDENTITY_MAIL_FROM"] = settings.identity_mail_from or IDENTITY_MAIL_FROM
    # From here on, `herald tenant ...` in another terminal finds this stack (herald/stack.py).
    try:
        notes.insert(0, f"  config    {write_stack(settings, env)}  (read by `herald ...` commands run here)")
    except OSError as error:  # Herald runs without it; only the other terminals' commands miss it
        say(f"could not record the stack for other commands: {error}", logging.WARNING)
    try:
        return _serve(supervisor, settings, env, notes, started)
    finally:
        remove_stack(var_dir)


def _running_stack(var_dir: Path) -> Stack | None:
    try:
        return running_stack(var_dir)
    except NoStack:  # a file we cannot read: someone else's stack; the ports will tell
        return None


def _serve(supervisor: Supervisor, settings: Settings, env: dict[str, str], notes: list[str],
           started: float) -> int:
    """Start the systems, the worker and the scheduler; supervise them until stopped."""
    log_dir = settings.var_dir / "log"
    for system in SYSTEMS:
        port = settings.ports[system.name]
        supervisor.add(Child(system.name, serve_argv(system.name, settings.host, port, settings.http_workers), env,
                             log=log_dir / f"{system.name}.log"))
    supervisor.add(Child("worker", worker_argv(settings.worker_processes, settings.worker_threads),
                         {**env, **settings.worker_env()}, log=log_dir / "worker.log"))
    supervisor.add(Child("scheduler", scheduler_argv(), env, log=log_dir / "scheduler.log"))
    supervisor.add(Child("consumer", consume_argv(), env, log=log_dir / "consumer.log"))  # analytics, request log
    supervisor.add(Child("smtpd", smtpd_argv(), env, log=log_dir / "smtpd.log"))  # submission and receiving

    pending = _wait_ready(settings, supervisor, started)
    if supervisor.stopping:
        supervisor.stop_all()
        return 1 if supervisor.failed else 0
    _print_addresses(settings, env, pending, notes, time.monotonic() - started)
    return supervisor.watch()


def _prepare_databases(settings: Settings) -> tuple[list[str], str | None]:
    """Notes for the operator, and the generated identity e-mail key (None when IDENTITY_MAIL_KEY is set)."""
    from herald.bootstrap import first_operator, first_start, identity_mail_key
    from herald.database import migrate

    applied: list[str] = []

    def report(event: str, app_label: str, name: str) -> None:
        if event == "apply_done":
            applied.append(f"{app_label}.{name}")

    async def prepare() -> tuple[list[str], str | None]:
        await migrate(settings, report=report)
        progress(f"migrations: {len(applied)} applied" if applied else "migrations: up to date")
        notes = await first_start(settings)
        notes += await first_operator(settings)
        return notes, (None if settings.identity_mail_key else await identity_mail_key(settings))

    return asyncio.run(prepare())


def _print_addresses(settings: Settings, env: dict[str, str], pending: list[str], notes: list[str],
                     elapsed: float) -> None:
    if pending:
        headline = (f"Herald started, but {', '.join(pending)} did not answer /readyz within {READY_SECONDS:.0f}s "
                    f"(see {shown(settings.var_dir / 'log')}).")
    else:
        headline = f"Herald is up ({elapsed:.1f}s)."
    lines = ["", headline]
    # The console first: it is where a person starts (docs/console.md).
    lines.append(f"  open {settings.url_of(CONSOLE.name)} in a browser to sign up or sign in")
    for system in SYSTEMS:
        lines.append(f"  {system.name:<9} http://{settings.host}:{settings.ports[system.name]}  ({system.title})")
    lines.append(f"  smtp      {settings.host}:{settings.smtp_submission_port} submission (AUTH with an API key), "
                 f"{settings.host}:{settings.smtp_receive_port} receiving")
    lines.append(f"  database  {_redact(env['DATABASE_URL'])}" + ("  (embedded)" if settings.embedded_database else ""))
    lines.append(f"  redis     {_redact(env['REDIS_URL'])}" + ("  (embedded)" if settings.embedded_redis else ""))
    lines.append(f"  logs      {settings.var_dir / 'log'}")
    lines.extend(notes)
    lines.append("Press Ctrl-C to stop.")
    print("\n".join(lines), flush=True)


def _redact(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.password:
        return url.replace(f":{parts.password}@", ":***@")
    return url


if __name__ == "__main__":  # pragma: no cover
    sys.exit(up())
