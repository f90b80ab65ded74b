"""A small process supervisor for ``herald up``.

Children run in their own session (a Ctrl-C reaches only us, and we stop them in order) and
get SIGTERM if this process dies without cleaning up (Linux parent-death signal). A child that
exits is reported on stderr and restarted with backoff; one that keeps crashing stops the
whole tree with a non-zero exit, rather than leaving a half-running Herald.

"Keeps crashing" means a start-up crash loop: MAX_CRASHES exits within CRASH_WINDOW, each less
than STARTUP_SECONDS after its start (a bad setting, a port taken, a database away). A child that
ran longer and then died (a worker SIGKILLed or OOM-killed) is restarted after a second however
often it happens, and its count starts again: a killed worker never stops Herald.

A child's output (standard output and error) goes to its log file through a pipe the supervisor
reads, one line at a time, into a rotating file (LOG_BYTES, LOG_BACKUPS): the supervisor is the
file's one writer, so a child of several processes (Sanic's or Dramatiq's workers) or a restarted
one never rotates it under another.
"""

from __future__ import annotations

import ctypes
import logging
import logging.handlers
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

_PR_SET_PDEATHSIG = 1
CRASH_WINDOW = 60.0
MAX_CRASHES = 5
# An exit this soon after a start counts toward a crash loop; a later one is a killed child.
STARTUP_SECONDS = 5.0
MAX_RESTART_DELAY = 10.0
STOP_GRACE = 15.0
# Each child's log file is rotated past this size, keeping this many older files (worker.log.1, ...).
LOG_BYTES = 10 * 1024 * 1024
LOG_BACKUPS = 5


def _die_with_parent() -> None:  # runs in the child between fork and exec
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:  # pragma: no cover - not Linux
        pass


log = logging.getLogger("herald.up")


def say(message: str, level: int = logging.INFO) -> None:
    """The supervisor's own line (kit/logs.py, role "up"): ``herald: ...`` on standard error in text."""
    if not logging.getLogger().handlers:  # before `herald up` set logging up (a configuration error)
        print(f"herald: {message}", file=sys.stderr, flush=True)
        return
    log.log(level, message)


def _copy_lines(pipe, handler: logging.Handler) -> None:
    """The child's output, line by line, into its rotating file, until the last process holding the
    pipe (the child and whatever it started) has gone."""
    with pipe:
        for line in iter(pipe.readline, b""):
            handler.handle(logging.makeLogRecord({"msg": line.rstrip(b"\r\n").decode("utf-8", "replace")}))


@dataclass
class Child:
    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path | None = None
    user: str | None = None
    stop_signal: int = signal.SIGTERM
    restart: bool = True
    process: subprocess.Popen | None = None
    crashes: list[float] = field(default_factory=list)
    next_start: float = 0.0
    started_at: float = 0.0
    # One per child, kept across its restarts: the lines of a stopped run still draining and those
    # of the next one go through the same handler (and its lock).
    log_file: logging.handlers.RotatingFileHandler | None = None

    def start(self) -> None:
        self.started_at = time.monotonic()
        if self.log and self.log_file is None:
            self.log_file = logging.handlers.RotatingFileHandler(self.log, maxBytes=LOG_BYTES,
                                                                 backupCount=LOG_BACKUPS, encoding="utf-8")
        self.process = subprocess.Popen(
            self.argv, env=self.env, stdout=subprocess.PIPE if self.log else None,
            stderr=subprocess.STDOUT if self.log else None,
            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent, user=self.user,
        )
        if self.log_file is not None:
            threading.Thread(target=_copy_lines, args=(self.process.stdout, self.log_file),
                             name=f"log-{self.name}", daemon=True).start()

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Supervisor:
    def __init__(self) -> None:
        self.children: list[Child] = []
        self.stopping = False
        self.failed = False

    def add(self, child: Child, *, start: bool = True) -> Child:
        self.children.append(child)
        if start:
            child.start()
        return child

    def install_signal_handlers(self) -> None:
        def request_stop(signum, _frame) -> None:
            if not self.stopping:
                say(f"received {signal.Signals(signum).name}, stopping")
            self.stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGHUP, request_stop)

    def watch(self) -> int:
        """Supervise until asked to stop or a child keeps crashing; then stop all. Returns the exit code."""
        while not self.stopping:
            now = time.monotonic()
            for child in self.children:
                if child.process is None:
                    if now >= child.next_start:
                        child.start()
                    continue
                code = child.process.poll()
                if code is None:
                    continue
                child.process = None
                if now - child.started_at >= STARTUP_SECONDS:
                    child.crashes = []  # it had started: a killed child, not a crash loop
                child.crashes = [t for t in child.crashes if now - t < CRASH_WINDOW] + [now]
                if not child.restart or len(child.crashes) >= MAX_CRASHES:
                    say(f"{child.name} exited with code {code} and will not be restarted; stopping Herald",
                        logging.ERROR)
                    self.failed = True
                    self.stopping = True
                    break
                delay = min(2 ** (len(child.crashes) - 1), MAX_RESTART_DELAY)
                say(f"{child.name} exited with code {code}; restarting in {delay:g}s"
                    + (f" (log: {child.log})" if child.log else ""), logging.WARNING)
                child.next_start = now + delay
            time.sleep(0.2)
        self.stop_all()
        return 1 if self.failed else 0

    def stop_all(self) -> None:
        """Stop children in reverse start order (HTTP and workers first, databases last)."""
        for child in reversed(self.children):
            self.stop(child)

    def stop(self, child: Child) -> None:
        if not child.alive:
            return
        assert child.process is not None
        try:
            child.process.send_signal(child.stop_signal)
        except ProcessLookupError:
            return
        try:
            child.process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            say(f"{child.name} did not stop within {STOP_GRACE:.0f}s; killing it", logging.WARNING)
            try:
                os.killpg(child.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            child.process.wait()
        # Anything the child left in its session (Sanic or Dramatiq worker processes) goes too.
        try:
            os.killpg(child.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
