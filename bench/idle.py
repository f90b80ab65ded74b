"""Idle cost: `herald up` with no traffic, the CPU of every process over an idle window.

Starts `herald up` in a temporary HERALD_VAR_DIR on embedded PostgreSQL and Redis (so nothing
else on the machine shares them), waits until every system answers /readyz, lets it settle,
then samples the CPU time of each process of the tree over ``window`` seconds (psutil). Herald's
own processes (HTTP systems, workers, scheduler, the supervisor) are summed apart from the
embedded servers. Target: Herald's processes together under 0.03 of a core.

`python -m bench.idle [--window 25]` runs it alone; `make bench` runs it as its last step.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
TARGET_CORES = 0.03
SETTLE_SECONDS = 10.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _role(process: psutil.Process) -> str:
    """A short name for a process of the tree, from its command line."""
    try:
        line = " ".join(process.cmdline())
    except psutil.Error:
        return "gone"
    for marker, name in (("postgres", "embedded postgres"), ("redis", "embedded redis"),
                         ("resource_tracker", "dramatiq resource tracker"), ("herald.worker", "worker"), ("dramatiq", "worker"),
                         ("-m schedules", "scheduler"), ("herald.cli up", "supervisor (herald up)"),
                         ("herald up", "supervisor (herald up)")):
        if marker in line:
            return name
    if "app." in line and ":create_app" in line:
        return "http " + line.split("app.", 1)[1].split(":", 1)[0]
    return line[:60]


def measure(window: float = 25.0) -> dict:
    from kit.systems import SYSTEMS

    var_dir = Path(tempfile.mkdtemp(prefix="herald-idle-"))
    ports = {s.name: _free_port() for s in SYSTEMS}
    env = {key: value for key, value in os.environ.items()
           if not key.endswith("DATABASE_URL") and key not in ("REDIS_URL", "SECRET_KEY", "HERALD_ENV")}
    env.update({"HERALD_VAR_DIR": str(var_dir), "EMBEDDED_POSTGRES_PORT": str(_free_port()),
                "EMBEDDED_REDIS_PORT": str(_free_port()), "WORKER_METRICS_PORT": str(_free_port()),
                **{f"{name.upper()}_PORT": str(port) for name, port in ports.items()}})
    log_path = var_dir / "up.out"
    with open(log_path, "wb") as log:
        up = subprocess.Popen([sys.executable, "-m", "herald.cli", "up"], env=env, cwd=ROOT, stdout=log,
                              stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 300
        pending = set(ports)
        while pending and time.monotonic() < deadline:
            if up.poll() is not None:
                raise RuntimeError(f"herald up exited: {log_path.read_text()[-2000:]}")
            for name in list(pending):
                try:
                    if httpx.get(f"http://127.0.0.1:{ports[name]}/readyz", timeout=2).status_code == 200:
                        pending.discard(name)
                except httpx.HTTPError:
                    pass
            time.sleep(0.5)
        if pending:
            raise RuntimeError(f"not ready: {sorted(pending)}")
        time.sleep(SETTLE_SECONDS)
        root = psutil.Process(up.pid)
        tree = [root, *root.children(recursive=True)]
        before = {}
        for process in tree:
            try:
                times = process.cpu_times()
                before[process.pid] = (process, times.user + times.system)
            except psutil.Error:
                pass
        started = time.monotonic()
        time.sleep(window)
        elapsed = time.monotonic() - started
        rows = []
        for pid, (process, first) in before.items():
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            rows.append({"pid": pid, "role": _role(process),
                         "cores": round((times.user + times.system - first) / elapsed, 4)})
        rows.sort(key=lambda row: (-row["cores"], row["role"]))
        embedded = [row for row in rows if row["role"].startswith("embedded")]
        herald = [row for row in rows if not row["role"].startswith("embedded")]
        total = round(sum(row["cores"] for row in herald), 4)
        return {"window_seconds": round(elapsed, 1), "herald_cores": total,
                "embedded_cores": round(sum(row["cores"] for row in embedded), 4),
                "target_cores": TARGET_CORES, "within_target": total < TARGET_CORES, "processes": rows}
    finally:
        up.send_signal(signal.SIGTERM)
        try:
            up.wait(90)
        except subprocess.TimeoutExpired:
            up.kill()
        shutil.rmtree(var_dir, ignore_errors=True)


def rows(results: dict) -> list[str]:
    """The bench table's rows for this step: the total, then every process that used any CPU."""
    found = results.get("idle")
    if not found:
        return []
    busy = ", ".join(f"{row['role']} {row['cores']}" for row in found["processes"] if row["cores"] > 0)
    return [f"| idle `herald up`, {found['window_seconds']} s window | Herald's processes "
            f"{found['herald_cores']} of a core (embedded PostgreSQL + Redis {found['embedded_cores']}) | "
            f"bound {TARGET_CORES} | {busy or 'no process above 0'} |"]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.idle")
    parser.add_argument("--window", type=float, default=25.0, help="idle seconds sampled")
    result = measure(parser.parse_args().window)
    print(json.dumps(result, indent=2))
    return 0 if result["within_target"] else 1


if __name__ == "__main__":
    sys.exit(main())
