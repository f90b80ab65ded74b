"""The runtime bench: the collection edge and a cached published page against a bare Sanic handler
measured in the same run, and the stream consumer draining what was collected.

    python -m bench.runtime [--seconds 20] [--concurrency 32]   (also a step of `python -m bench`;
                                                                  --skip-runtime there)

Needs DATABASE_URL and REDIS_URL when run alone. Creates its own runtime and pages databases
(``herald_bench_<id>_runtime``/``_pages``), uses an empty Redis logical database (the bench's own
inside `python -m bench`; the first empty one, 15 down, when run alone, flushed at its end), seeds a pixel, a verified custom domain and a published page, and starts ``herald serve
pages``, ``herald serve runtime`` (with ``RUNTIME_COLLECT_PER_ADDRESS=0``: the load comes from one
address) and the baseline, a bare Sanic handler answering 204 (``bench.runtime:baseline_app``).

Phases, each a closed loop at ``--concurrency`` for ``--seconds``, baseline and subject alternating
in rounds (the median of the rounds' ratios):

- ``collect``: ``POST /collect`` (one page view per batch) vs the baseline; bound: ratio >= 0.5;
- ``page``: ``GET /bench`` on the seeded host (a cached published page) vs the baseline; bound 0.5;
- ``consumer``: ``herald consume`` then drains the stream; events written are counted against the
  batches accepted (204s): bound: zero lost; its throughput is events written per second.

Each phase also reports the server's CPU per request (``server_cpu_us``: user and system time of the
serving process over its rounds, per answered request). The rate ratio moves with the machine's
other load from round to round; the CPU a request costs moves much less, and says where a change
went when the ratio cannot tell it from noise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncpg
import httpx
import psutil
import redis
from sanic import Sanic
from sanic.response import empty

from bench.load import build_request, closed_loop, merge
from bench.stage import ROOT, free_port, say
from kit.settings import replace_database

HOST = "lp.bench-runtime.example.com"
SITE = f"https://{HOST}"
BOUND = 0.5


def baseline_app() -> Sanic:
    """The floor of the rate: a bare Sanic handler (`sanic bench.runtime:baseline_app --factory`)."""
    app = Sanic("herald_bench_runtime_baseline")
    app.config.ACCESS_LOG = False

    @app.route("/", methods=["GET", "POST"])
    async def bare(request):
        return empty()

    return app


def _pg(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)


async def _seed(pages_db: str, runtime_db: str) -> str:
    """A verified domain with a published page (pages) and a pixel for it (runtime): the credential."""
    tenant = f"acc_bench{secrets.token_hex(6)}"
    conn = await asyncpg.connect(_pg(pages_db))
    try:
        await conn.execute(
            "INSERT INTO custom_domains (public_id, tenant_id, name, token, status, verified_at, checked_at, "
            "created_at) VALUES ($1, $2, $3, $4, 'verificado', now(), now(), now())",
            f"dom_bench{secrets.token_hex(6)}", tenant, HOST, secrets.token_hex(16))
        blocks = json.dumps([{"Type": "heading", "Text": "Bench", "Level": 1},
                             {"Type": "text", "Text": "A published page served from the runtime's cache."}])
        page = await conn.fetchval(
            "INSERT INTO pages (public_id, tenant_id, domain, slug, title, blocks, seo, status, live_version, "
            "last_version, published_at, created_at, updated_at) VALUES ($1, $2, $3, 'bench', 'Bench', $4::jsonb, "
            "'{}'::jsonb, 'publicado', 1, 1, now(), now(), now()) RETURNING id",
            f"pag_bench{secrets.token_hex(6)}", tenant, HOST, blocks)
        await conn.execute(
            "INSERT INTO page_versions (page_id, number, slug, title, blocks, seo, published_at) "
            "VALUES ($1, 1, 'bench', 'Bench', $2::jsonb, '{}'::jsonb, now())", page, blocks)
    finally:
        await conn.close()
    from models.runtime.pixel import Pixel, credential_of

    conn = await asyncpg.connect(_pg(runtime_db))
    try:
        pixel_id = f"pxl_bench{secrets.token_hex(6)}"
        await conn.execute(
            "INSERT INTO pixels (public_id, tenant, name, site, replay, enabled, key_version, created_at, updated_at) "
            "VALUES ($1, $2, 'Bench', $3, false, true, 1, now(), now())", pixel_id, tenant, HOST)
    finally:
        await conn.close()
    return credential_of(Pixel(public_id=pixel_id, tenant=tenant, site=HOST, key_version=1, replay=False))


async def _drop(url: str) -> None:
    admin, name = url.rsplit("/", 1)
    conn = await asyncpg.connect(_pg(f"{admin}/postgres"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def _spawn(argv: list[str], env: dict, log: Path) -> subprocess.Popen:
    out = open(log, "ab")  # noqa: SIM115 - owned by the child
    return subprocess.Popen(argv, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


async def _wait(port: int, process: subprocess.Popen, path: str = "/healthz", seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"bench.runtime: a server exited ({process.args})")
        try:
            httpx.get(f"http://127.0.0.1:{port}{path}", timeout=1)
            return
        except httpx.HTTPError:
            await asyncio.sleep(0.2)
    raise SystemExit(f"bench.runtime: port {port} did not answer")


def _stop(process: subprocess.Popen | None) -> None:
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _cpu_seconds(pid: int) -> float:
    times = psutil.Process(pid).cpu_times()
    return times.user + times.system


async def _alternate(streams: dict, seconds: float, rounds: int, concurrency: int) -> dict:
    """``streams``: name -> (port, request bytes, expected status, pid of the serving process)."""
    for port, request, status, _ in streams.values():
        await closed_loop("127.0.0.1", port, request, concurrency, min(1.0, seconds / 4), status)
    results: dict = {name: [] for name in streams}
    cpu: dict = {name: 0.0 for name in streams}
    for round_ in range(rounds):
        for name, (port, request, status, pid) in streams.items():
            say(f"runtime: {name}, round {round_ + 1}/{rounds}, {seconds / rounds:.1f}s")
            before = _cpu_seconds(pid)
            results[name].append(await closed_loop("127.0.0.1", port, request, concurrency, seconds / rounds, status))
            cpu[name] += _cpu_seconds(pid) - before
    summary = {name: merge(runs).summary(streams[name][2]) for name, runs in results.items()}
    for name, runs in results.items():
        answered = sum(run.requests for run in runs)
        summary[name]["server_cpu_us"] = round(cpu[name] / answered * 1e6, 1) if answered else None
    ratios = sorted(s.requests / s.elapsed / (b.requests / b.elapsed)
                    for b, s in zip(results["baseline"], results["subject"]))
    summary["round_ratios"] = [round(r, 3) for r in ratios]
    summary["ratio"] = round(ratios[len(ratios) // 2], 3)
    summary["bound"] = BOUND
    summary["within_bound"] = summary["ratio"] >= BOUND
    return summary


async def run_in(env: dict[str, str], seconds: float, concurrency: int, rounds: int, log_dir: Path) -> dict:
    run = secrets.token_hex(3)
    runtime_db = replace_database(env["DATABASE_URL"], f"herald_bench_{run}_runtime")
    pages_db = replace_database(env["DATABASE_URL"], f"herald_bench_{run}_pages")
    ports = {"pages": free_port(), "runtime": free_port(), "baseline": free_port()}
    redis_url = env["REDIS_URL"]  # an empty logical database of the bench's own (Stage._free_redis_db)
    env = {**env, "RUNTIME_DATABASE_URL": runtime_db, "PAGES_DATABASE_URL": pages_db, "REDIS_URL": redis_url,
           "PAGES_URL": f"http://127.0.0.1:{ports['pages']}", "RUNTIME_URL": f"http://127.0.0.1:{ports['runtime']}",
           # One address and one pixel carry what would be many visitors' and sites' traffic: their
           # budgets (docs/runtime.md, "Bounds") would answer 429s that measure nothing of the route.
           "RUNTIME_COLLECT_PER_ADDRESS": "0", "RUNTIME_COLLECT_CREDENTIAL_MIB": "4096", "LOG_LEVEL": "WARNING"}
    processes: list[subprocess.Popen] = []
    results: dict = {}
    try:
        for system in ("runtime", "pages"):
            subprocess.run([sys.executable, "-m", "herald.cli", "migrate", system], env=env, cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
        credential = await _seed(pages_db, runtime_db)
        for system in ("pages", "runtime"):
            processes.append(_spawn([sys.executable, "-m", "herald.cli", "serve", system, "--port",
                                     str(ports[system])], env, log_dir / f"{system}.log"))
            await _wait(ports[system], processes[-1])
        processes.append(_spawn([sys.executable, "-m", "sanic", "bench.runtime:baseline_app", "--factory", "--host",
                                 "127.0.0.1", "--port", str(ports["baseline"]), "--single-process", "--no-motd"],
                                env, log_dir / "baseline.log"))
        await _wait(ports["baseline"], processes[-1], "/")
        # The serving processes whose CPU is counted (`herald serve` execs Sanic: the same pid).
        pids = {"runtime": processes[1].pid, "baseline": processes[2].pid}

        batch = json.dumps({"Session": "bench-session", "Events": [
            {"Type": "pageview", "Url": f"{SITE}/bench", "New": False}]}).encode()
        collect = build_request("POST", f"/collect?k={credential}", batch,
                                {"Origin": SITE, "Content-Type": "text/plain", "User-Agent": "Mozilla/5.0 bench"},
                                "127.0.0.1")
        bare_post = build_request("POST", "/", batch, {"Content-Type": "text/plain"}, "127.0.0.1")
        results["collect"] = await _alternate({"baseline": (ports["baseline"], bare_post, 204, pids["baseline"]),
                                               "subject": (ports["runtime"], collect, 204, pids["runtime"])},
                                              seconds, rounds, concurrency)
        page = build_request("GET", "/bench", None, {"Cookie": "hv=bench-visitor-000001"}, HOST)
        bare_get = build_request("GET", "/", None, {}, "127.0.0.1")
        results["page"] = await _alternate({"baseline": (ports["baseline"], bare_get, 204, pids["baseline"]),
                                            "subject": (ports["runtime"], page, 200, pids["runtime"])},
                                           seconds, rounds, concurrency)

        client = redis.Redis.from_url(redis_url)
        accepted = client.xlen("{runtime-collect}:events")  # every 204 of the phase, warm-up included
        say(f"runtime: consumer draining {accepted} entries")
        started = None
        consumer = _spawn([sys.executable, "-m", "herald.cli", "consume", "--batch", "500"], env,
                          log_dir / "consumer.log")
        processes.append(consumer)
        conn = await asyncpg.connect(_pg(runtime_db))
        try:
            written, deadline = 0, time.monotonic() + max(120.0, seconds * 10)
            while time.monotonic() < deadline:
                written = await conn.fetchval("SELECT count(*) FROM analytics_events")
                if written and started is None:
                    started, first = time.monotonic(), written  # throughput from the first commit on
                if written >= accepted:
                    break
                await asyncio.sleep(0.05)
        finally:
            await conn.close()
        elapsed = max(1e-3, time.monotonic() - (started or time.monotonic()))
        written_after_first = written - (first if started else 0)
        results["consumer"] = {"accepted_batches": accepted, "events_written": written, "lost": accepted - written,
                               "seconds": round(elapsed, 2),
                               "events_per_second": round(written_after_first / elapsed, 1),
                               "collect_rps": results["collect"]["subject"]["rps"],
                               "keeps_up": written_after_first / elapsed >= results["collect"]["subject"]["rps"]}
        return results
    finally:
        for process in reversed(processes):
            _stop(process)
        for database in (runtime_db, pages_db):
            await _drop(database)


async def run(stage) -> dict:
    """The step of `python -m bench` (bench/__main__.py)."""
    # The pixel's credential is signed in this process (_seed), with the key the servers are given.
    os.environ.update({key: stage.env[key] for key in ("SECRET_KEY", "SERVICE_TOKEN") if key in stage.env})
    results = await run_in(stage.env, stage.args.seconds, stage.args.concurrency, stage.args.rounds, stage.tmp)
    say(f"runtime: /collect {results['collect']['ratio']} x bare, page {results['page']['ratio']} x bare, "
        f"lost {results['consumer']['lost']}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("bench.runtime needs DATABASE_URL and REDIS_URL", file=sys.stderr)
        return 2
    log_dir = Path(tempfile.mkdtemp(prefix="herald-bench-runtime-"))
    from bench.stage import Stage

    env = {**os.environ, "SECRET_KEY": secrets.token_urlsafe(40), "SERVICE_TOKEN": secrets.token_urlsafe(40),
           "HERALD_ENV": "development", "HERALD_VAR_DIR": str(log_dir / "var"),
           "REDIS_URL": Stage._free_redis_db(os.environ["REDIS_URL"])}  # never a database someone uses
    os.environ.update({key: env[key] for key in ("SECRET_KEY", "SERVICE_TOKEN")})
    try:
        results = asyncio.run(run_in(env, args.seconds, args.concurrency, args.rounds, log_dir))
    finally:
        redis.Redis.from_url(env["REDIS_URL"]).flushdb()  # the empty database this run took
    print(json.dumps(results, indent=2))
    for name in ("collect", "page"):
        print(f"{name:8} {results[name]['subject']['rps']:>9} rps vs bare {results[name]['baseline']['rps']:>9} rps: "
              f"ratio {results[name]['ratio']} (bound {BOUND}) {'met' if results[name]['within_bound'] else 'MISSED'}; "
              f"server CPU {results[name]['subject']['server_cpu_us']} us a request vs bare "
              f"{results[name]['baseline']['server_cpu_us']} us")
    consumer = results["consumer"]
    print(f"consumer {consumer['events_per_second']} events/s; "
          f"lost {consumer['lost']} of {consumer['accepted_batches']}")
    shutil.rmtree(log_dir, ignore_errors=True)
    ok = results["collect"]["within_bound"] and results["page"]["within_bound"] and consumer["lost"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())


def rows(results: dict) -> list[str]:
    """The bench table's rows for this step (`python -m bench`)."""
    found = results.get("runtime")
    if not found:
        return []
    lines = []
    for name, label in (("collect", "runtime `POST /collect`, one page view a batch"),
                        ("page", "runtime, a cached published page (`GET /bench` on its custom host)")):
        phase = found[name]
        subject, bare = phase["subject"], phase["baseline"]
        verdict = "" if phase["within_bound"] else ": **not met**"
        lines.append(f"| {label}, c=32, 1 process | {subject['rps']} req/s, p99 {subject['p99_ms']} ms; server CPU "
                     f"{subject['server_cpu_us']} µs a request | bare Sanic handler: {bare['rps']} req/s; "
                     f"{bare['server_cpu_us']} µs | **{phase['ratio']}** (bound {phase['bound']}{verdict}; "
                     f"rounds {phase['round_ratios']}) |")
    consumer = found.get("consumer")
    if consumer:
        lines.append(f"| runtime stream consumer (`herald consume`) | {consumer['events_per_second']} events/s, "
                     f"{consumer['lost']} lost of {consumer['accepted_batches']} | `/collect`'s "
                     f"{consumer['collect_rps']} req/s | {'keeps up' if consumer['keeps_up'] else '**behind**'} |")
    return lines
