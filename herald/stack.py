"""The running stack's configuration, for the commands of a second terminal.

``herald up`` writes ``<var>/stack.json`` (mode 0600) once its databases are ready: its pid and
the effective values of the settings variables its children run with (the embedded servers'
URLs, the generated SECRET_KEY and SERVICE_TOKEN, ports, DNS_NAMESERVERS...). It removes the file
when it stops; a file whose process is gone (``herald up`` was killed) is stale and ignored.

Every other ``herald`` command started without a database in its environment takes its
configuration from a running stack under HERALD_VAR_DIR (``./var``); a variable set in the
environment still wins over the stack's value. With DATABASE_URL (or a ``<SYSTEM>_DATABASE_URL``)
set, the command is aimed at another database and the stack is not consulted at all: its
SECRET_KEY must not seal secrets in someone else's database.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping, MutableMapping

from kit.settings import Settings, settings_variables
from kit.systems import DATA_SYSTEMS, SYSTEMS

STACK_FILE = "stack.json"
DATABASE_VARIABLES = ("DATABASE_URL", *(f"{system.name.upper()}_DATABASE_URL" for system in DATA_SYSTEMS))


class NoStack(Exception):
    """No usable stack for a command that needs one; the message is the line to print."""


@dataclass(frozen=True)
class Stack:
    path: Path
    pid: int
    env: dict[str, str]


def var_dir_of(environ: Mapping[str, str]) -> Path:
    return Path(environ.get("HERALD_VAR_DIR") or "var").resolve()


def shown(path: Path) -> str:
    """``./var`` for the project's own directory, the absolute path elsewhere."""
    try:
        return "./" + str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _process_start(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (Linux), telling a reused pid apart."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _alive(pid: int, started: str | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process, e.g. `herald up` run as root
        pass
    return started is None or _process_start(pid) in (None, started)


def write_stack(settings: Settings, env: Mapping[str, str]) -> Path:
    """Record the stack's effective configuration (called by ``herald up`` once databases are ready)."""
    values = {name: env[name] for name in sorted(settings_variables(env)) if env.get(name)}
    values.pop("HERALD_VAR_DIR", None)  # the file is found there: the reader's own value
    for system in SYSTEMS:
        values[f"{system.name.upper()}_PORT"] = str(settings.ports[system.name])
        values[f"{system.name.upper()}_URL"] = settings.url_of(system.name)
    pid = os.getpid()
    record = {"pid": pid, "process_start": _process_start(pid),
              "started_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "env": values}
    path = settings.var_dir / STACK_FILE
    partial = path.with_name(f".{STACK_FILE}.{pid}")
    # Created 0600 before a secret is written to it; renamed into place so readers never see half a file.
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(record, file, indent=2)
        file.write("\n")
    os.replace(partial, path)
    return path


def remove_stack(var_dir: Path) -> None:
    """Called by ``herald up`` as it stops; leaves another process's file alone."""
    path = var_dir / STACK_FILE
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def running_stack(var_dir: Path) -> Stack | None:
    """The stack running under ``var_dir``; None when there is none (or only a stale file)."""
    path = var_dir / STACK_FILE
    try:
        record = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except PermissionError:
        raise NoStack(f"{shown(path)} is not readable by this user (run as the user of `herald up`, "
                      "or set DATABASE_URL)") from None
    except (OSError, ValueError):
        return None
    pid = record.get("pid") if isinstance(record, dict) else None
    if not isinstance(pid, int) or not _alive(pid, record.get("process_start")):
        return None
    env = record.get("env")
    return Stack(path, pid, {str(k): str(v) for k, v in env.items()} if isinstance(env, dict) else {})


def use_running_stack(environ: MutableMapping[str, str]) -> Stack | None:
    """Fill in, from the running stack, every variable the environment leaves unset.

    Does nothing when the environment names a database itself; raises :class:`NoStack` when it
    does not and no stack is running under HERALD_VAR_DIR.
    """
    if any(environ.get(name) for name in DATABASE_VARIABLES):
        return None
    var_dir = var_dir_of(environ)
    stack = running_stack(var_dir)
    if stack is None:
        raise NoStack(f"no running stack found under {shown(var_dir)} "
                      "(start one with `make up`, or set DATABASE_URL)")
    for name, value in stack.env.items():
        if not environ.get(name):  # an empty variable counts as unset, as in the settings
            environ[name] = value
    return stack
