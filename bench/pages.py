"""The pages bench: the TLS ask a reverse proxy makes before issuing a certificate on demand
(docs/pages.md, "Custom domains behind Caddy").

    python -m bench.pages [--requests 3000]      (also a step of `python -m bench`; --skip-pages there)

Needs DATABASE_URL and REDIS_URL when run alone (inside `python -m bench`, the bench's own servers).
Creates its own database (``herald_bench_<id>_pages``), migrates it, seeds one verified custom domain,
starts ``herald serve pages`` on a free port, and drops the database at the end.

Measured: ``--requests`` sequential requests on one keep-alive connection (a proxy's ask is one
request at a time per handshake) for each of four series, after one warm-up request per host so the
answer comes from the process's cache (app/pages/page/internal.py, ``TlsCache``: 1 s per host, so a
run of a few seconds also includes the occasional refresh from the database, as a proxy would see):

- ``authorize_verified``  ``GET /internal/v1/tls/authorize?domain=<verified>`` (service credential) -> true
- ``authorize_unknown``   the same for a host no account has: false
- ``ask_verified``        ``GET /tls/ask?domain=<verified>`` (Caddy's form, no credential): 200
- ``ask_unknown``         ``GET /tls/ask?domain=<unknown>``: 404

p50 and p99 of each, client-side wall time (request written to answer read). Bound: every p99 under
:data:`P99_BOUND_MS` (the contract's 5 ms); exit status 1 when missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx

from bench.load import build_request, read_response
from bench.stage import ROOT, free_port, say
from kit.settings import replace_database

P99_BOUND_MS = 5.0
VERIFIED_HOST = "lp.bench-verified.example.com"
UNKNOWN_HOST = "nobody.bench-unknown.example.com"


def _asyncpg_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


async def _seed(database_url: str) -> None:
    conn = await asyncpg.connect(_asyncpg_url(database_url))
    try:
        await conn.execute(
            "INSERT INTO custom_domains (public_id, tenant_id, name, token, status, verified_at, checked_at, "
            "created_at) VALUES ($1, $2, $3, $4, 'verificado', now(), now(), now())",
            f"dom_bench{secrets.token_hex(6)}", f"acc_bench{secrets.token_hex(6)}", VERIFIED_HOST,
            secrets.token_hex(16))
    finally:
        await conn.close()


async def _drop(database_url: str) -> None:
    admin, name = database_url.rsplit("/", 1)
    conn = await asyncpg.connect(_asyncpg_url(f"{admin}/postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def _percentile(ordered: list[float], p: float) -> float:
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def _series(port: int, request: bytes, expected: int, requests: int) -> dict:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        times: list[float] = []
        for index in range(requests + 1):
            started = time.perf_counter()
            writer.write(request)
            await writer.drain()
            status, body = await read_response(reader)
            elapsed = time.perf_counter() - started
            if status != expected:
                raise SystemExit(f"bench.pages: expected {expected}, got {status}: {body[:200]!r}")
            if index:  # the first fills the cache
                times.append(elapsed * 1000)
    finally:
        writer.close()
    times.sort()
    return {"requests": len(times), "p50_ms": round(statistics.median(times), 3),
            "p99_ms": round(_percentile(times, 99), 3), "max_ms": round(times[-1], 3)}


async def measure(port: int, service_token: str, requests: int) -> dict:
    credential = {"Authorization": f"Bearer {service_token}"}
    series = {
        "authorize_verified": (f"/internal/v1/tls/authorize?domain={VERIFIED_HOST}", credential, 200, True),
        "authorize_unknown": (f"/internal/v1/tls/authorize?domain={UNKNOWN_HOST}", credential, 200, False),
        "ask_verified": (f"/tls/ask?domain={VERIFIED_HOST}", {}, 200, True),
        "ask_unknown": (f"/tls/ask?domain={UNKNOWN_HOST}", {}, 404, None),
    }
    results: dict = {}
    for name, (path, headers, status, authorized) in series.items():
        answer = httpx.get(f"http://127.0.0.1:{port}{path}", headers=headers, timeout=10)
        if answer.status_code != status or (authorized is not None and answer.json()["Authorized"] is not authorized):
            raise SystemExit(f"bench.pages: {path} answered {answer.status_code} {answer.text[:200]}")
        say(f"pages: {name}, {requests} sequential requests")
        results[name] = await _series(port, build_request("GET", path, None, headers, "127.0.0.1"), status, requests)
    results["p99_bound_ms"] = P99_BOUND_MS
    results["within_bound"] = all(value["p99_ms"] < P99_BOUND_MS for value in results.values()
                                  if isinstance(value, dict))
    return results


async def run_in(env: dict[str, str], requests: int, log_dir: Path) -> dict:
    """The whole step: database, seed, server, measure, tear down."""
    database = replace_database(env["DATABASE_URL"], f"herald_bench_{secrets.token_hex(3)}_pages")
    port = free_port()
    env = {**env, "PAGES_DATABASE_URL": database, "PAGES_PORT": str(port), "LOG_LEVEL": "WARNING"}
    server = None
    try:
        subprocess.run([sys.executable, "-m", "herald.cli", "migrate", "pages"], env=env, cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        await _seed(database)
        log = open(log_dir / "pages.log", "ab")  # noqa: SIM115 - owned by the child
        server = subprocess.Popen([sys.executable, "-m", "herald.cli", "serve", "pages", "--port", str(port)],
                                  env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"bench.pages: the pages server did not start; log in {log_dir / 'pages.log'}")
            await asyncio.sleep(0.2)
        return await measure(port, env["SERVICE_TOKEN"], requests)
    finally:
        if server is not None and server.poll() is None:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        await _drop(database)


async def run(stage, requests: int = 3000) -> dict:
    """The step of `python -m bench` (bench/__main__.py), on the bench's own servers."""
    results = await run_in(stage.env, requests, stage.tmp)
    say(f"pages: TLS ask p99 {max(v['p99_ms'] for v in results.values() if isinstance(v, dict)):.2f} ms "
        f"(bound {P99_BOUND_MS} ms)")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="timed requests per series")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("bench.pages needs DATABASE_URL and REDIS_URL", file=sys.stderr)
        return 2
    log_dir = Path(tempfile.mkdtemp(prefix="herald-bench-pages-"))
    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(40), "SERVICE_TOKEN": secrets.token_urlsafe(40),
           "HERALD_ENV": "development", "HERALD_VAR_DIR": str(log_dir / "var")}
    results = asyncio.run(run_in(env, args.requests, log_dir))
    print(json.dumps(results, indent=2))
    for name, value in results.items():
        if isinstance(value, dict):
            print(f"{name:20} p50 {value['p50_ms']:.3f} ms  p99 {value['p99_ms']:.3f} ms  max {value['max_ms']:.3f} ms")
    print(f"bound: p99 under {P99_BOUND_MS} ms: {'met' if results['within_bound'] else 'MISSED'}")
    shutil.rmtree(log_dir, ignore_errors=True)
    return 0 if results["within_bound"] else 1


if __name__ == "__main__":
    sys.exit(main())


def rows(results: dict) -> list[str]:
    """The bench table's row for this step (`python -m bench`)."""
    found = results.get("pages_tls")
    if not found:
        return []
    series = {name: value for name, value in found.items() if isinstance(value, dict)}
    worst = max(value["p99_ms"] for value in series.values())
    detail = ", ".join(f"{name} p50 {value['p50_ms']} ms, p99 {value['p99_ms']} ms" for name, value in series.items())
    return [f"| pages TLS ask, warm cache ({detail}) | p99 {worst} ms at most | bound p99 {found['p99_bound_ms']} ms | "
            f"{'met' if found['within_bound'] else '**not met**'} |"]
