"""CPU time a phase of the bench costs, per answered request: the serving processes (the one that
listens on the port and its children), PostgreSQL and Redis.

On a shared machine a rate ratio moves with the neighbours from round to round; the CPU a request
costs each process moves much less, and says where the time goes (issue 21: "report where the
remaining time goes")."""

from __future__ import annotations

import os

import psutil

SERVICES = {"database": ("postgres", "postgresql"), "redis": ("redis-server",)}


def _seconds(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0.0
    return times.user + times.system


def server_of(port: int) -> psutil.Process | None:
    """The process that serves ``port``, as the bench started it: the holder of the listening socket,
    or the ancestor of it that is the bench's own child (Sanic's main process, whose workers and
    their helpers are its children)."""
    for connection in psutil.net_connections("tcp"):
        if connection.status != psutil.CONN_LISTEN or connection.laddr.port != port or not connection.pid:
            continue
        try:
            process = psutil.Process(connection.pid)
            while process.ppid() not in (os.getpid(), 0, 1):
                process = process.parent()
            return process
        except (psutil.NoSuchProcess, AttributeError):
            continue
    return None


def sample(server: psutil.Process | None) -> dict[str, float]:
    """CPU seconds so far: the server's tree, and each service's processes."""
    found = {"server": 0.0, **{name: 0.0 for name in SERVICES}}
    if server is not None:
        try:
            tree = [server, *server.children(recursive=True)]
        except psutil.NoSuchProcess:
            tree = []
        found["server"] = sum(map(_seconds, tree))
    for process in psutil.process_iter(["name"]):
        for name, names in SERVICES.items():
            if process.info["name"] in names:
                found[name] += _seconds(process)
    return found


def per_request(before: dict[str, float], after: dict[str, float], requests: int) -> dict[str, float]:
    """Microseconds of CPU per answered request, by process group."""
    return {f"{name}_cpu_us": round((after[name] - before[name]) * 1e6 / max(1, requests), 1) for name in before}
