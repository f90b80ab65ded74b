"""The command line of each process role, in one place: `herald serve|worker|scheduler|consume|smtpd`
exec them (herald/cli.py), `herald up` supervises them (herald/up.py), `make chaos` starts them
(bench/chaos.py). A module of its own so that the command and the all-in-one import it, not each
other."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def serve_argv(system: str, host: str, port: int, workers: int) -> list[str]:
    argv = [sys.executable, "-m", "sanic", f"app.{system}:create_app", "--factory", "--host", host,
            "--port", str(port), "--no-motd"]
    argv += ["--single-process"] if workers == 1 else ["--workers", str(workers)]
    return argv


def serve_env(var_dir: Path, system: str, workers: int) -> dict[str, str]:
    """The environment of `herald serve`: with several workers, a fresh PROMETHEUS_MULTIPROC_DIR
    (unless one is given) so that /metrics adds up every worker's counters, not one worker's."""
    env = dict(os.environ)
    if workers > 1 and not env.get("PROMETHEUS_MULTIPROC_DIR"):
        metrics_dir = var_dir / "http-metrics" / system
        shutil.rmtree(metrics_dir, ignore_errors=True)  # counters of an earlier run are not this one's
        metrics_dir.mkdir(parents=True)
        env["PROMETHEUS_MULTIPROC_DIR"] = str(metrics_dir)
    return env


def worker_argv(processes: int, threads: int, queues: list[str] | None = None) -> list[str]:
    # Dramatiq's command line for the ``tasks`` package, after Herald's logging set-up (herald/worker.py).
    argv = [sys.executable, "-m", "herald.worker", "--processes", str(processes), "--threads", str(threads)]
    if queues:
        argv += ["--queues", *queues]
    return argv


def scheduler_argv() -> list[str]:
    return [sys.executable, "-m", "schedules"]


def consume_argv(extra: list[str] | None = None) -> list[str]:
    """The stream consumer: the runtime's collected events and the platform's request log
    (tasks/streams/consume.py)."""
    return [sys.executable, "-m", "tasks.streams.consume", *(extra or [])]


def smtpd_argv() -> list[str]:
    """Herald's SMTP server: submission and receiving (app/smtp/server.py)."""
    return [sys.executable, "-m", "app.smtp"]
