"""`python -m bench`: how fast Herald accepts and delivers, each figure next to a baseline measured
in the same run on the same machine.

1. accept: POST /v1/emails/send (one recipient) at concurrency 32, against the floor (a minimal
   Sanic handler inserting the same two rows with raw asyncpg);
2. batch: POST /v1/emails/batch with 500 items;
3. end to end: a steady offered load (200 messages/s) from the 202 to the sink's record, with the
   relay lag (outbox commit to enqueue); baseline: a no-op Dramatiq actor's throughput;
4. memory: peak RSS of every process it started;
5. workers: accept again with HTTP_WORKERS=2, against the floor in two processes;
6. scale: request logs and messages seeded by the million, the read routes' p95 and their plans
   (bench/scale.py);
7. through SMTP: live e-mail with DKIM to a local SMTP server, delivered rate against the no-op
   rate with the same worker processes, p99 at the offered rate, relay lag (bench/smtp_e2e.py);
8. idle: `herald up` with no traffic, the CPU of every process (bench/idle.py).

Uses DATABASE_URL / REDIS_URL when set, else starts the embedded servers. Creates its own
databases and drops them at the end. Results: bench/results/<date>.json and .md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform as host_platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import asyncpg
import httpx
import psutil
import redis

from bench import idle, scale, smtp_e2e
from bench.load import build_request, closed_loop, merge, message_ids, open_loop
from bench.report import accept_rows, plans_text, scale_rows
from herald.settings import load_settings, replace_database

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def say(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


class Memory:
    """Samples the RSS of the processes it is told about (and their children) every 0.25 s."""

    def __init__(self) -> None:
        self.roots: dict[str, int] = {}
        self.peaks: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def watch(self, name: str, pid: int) -> None:
        self.roots[name] = pid

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            for name, pid in list(self.roots.items()):
                try:
                    root = psutil.Process(pid)
                    rss = sum(p.memory_info().rss for p in [root, *root.children(recursive=True)])
                except psutil.Error:
                    continue
                self.peaks[name] = max(self.peaks.get(name, 0), rss)

    def stop(self) -> dict[str, float]:
        self._stop.set()
        self._thread.join()
        return {name: round(peak / 2**20, 1) for name, peak in sorted(self.peaks.items())}


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.tmp = Path(tempfile.mkdtemp(prefix="herald-bench-"))
        self.children: list[subprocess.Popen] = []
        self.services_started: list[subprocess.Popen] = []  # embedded PostgreSQL and Redis, stopped last
        self.memory = Memory()
        self.run_id = secrets.token_hex(3)
        self.env: dict[str, str] = {}

    # --- services ------------------------------------------------------------------------------
    def services(self) -> None:
        from herald.embedded import EmbeddedPostgres, EmbeddedRedis

        database_url = os.environ.get("DATABASE_URL")
        redis_url = os.environ.get("REDIS_URL")
        if not database_url:
            server = EmbeddedPostgres(self.tmp, free_port())
            server.prepare()
            command = server.command()
            self.services_started.append(self.spawn("postgres", command.argv, os.environ.copy(),
                                                    user=command.user))
            server.wait_ready()
            database_url = server.url
        if not redis_url:
            server = EmbeddedRedis(self.tmp, free_port())
            server.prepare()
            self.services_started.append(self.spawn("redis", server.command().argv, os.environ.copy()))
            server.wait_ready()
            redis_url = server.url
        redis_url = self._free_redis_db(redis_url)
        port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "PLATFORM_DATABASE_URL": replace_database(database_url, f"herald_bench_{self.run_id}_platform"),
            "REDIS_URL": redis_url,
            "SECRET_KEY": secrets.token_urlsafe(40),
            "SERVICE_TOKEN": secrets.token_urlsafe(40),
            "HERALD_ENV": "production",
            "HERALD_VAR_DIR": str(self.tmp / "var"),
            "WORKER_METRICS_PORT": "0",
            "LOG_LEVEL": "WARNING",
            "PLATFORM_PORT": str(port),
            "RATE_LIMIT": "10000000",
        }
        self.platform_port = port

    @staticmethod
    def _free_redis_db(url: str) -> str:
        base = url.rsplit("/", 1)[0] if url.count("/") > 2 else url
        for index in range(15, 0, -1):
            client = redis.Redis.from_url(f"{base}/{index}")
            try:
                if client.dbsize() == 0:
                    return f"{base}/{index}"
            finally:
                client.close()
        raise SystemExit("bench: no empty Redis logical database")

    def spawn(self, name: str, argv: list[str], env: dict[str, str], user: str | None = None) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "ab")  # noqa: SIM115 - owned by the child
        process = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                                   start_new_session=True, user=user)
        self.children.append(process)
        self.memory.watch(name, process.pid)
        return process

    def stop(self, process: subprocess.Popen) -> None:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    async def prepare_database(self) -> None:
        from tortoise.context import TortoiseContext

        from app.platform.api_key.service import create_key
        from app.platform.tenant.service import create_tenant
        from herald.database import migrate
        from models import tortoise_config
        from models.platform.api_key import KeyKind

        settings = load_settings(self.env)
        await migrate(settings, ["platform"])
        async with TortoiseContext() as context:
            await context.init(config=tortoise_config(settings, ["platform"], pool_max=2))
            tenant = await create_tenant("Bench", f"bench-{self.run_id}")
            key_row, key = await create_key(tenant.public_id, "bench", ["email:send", "email:read", "logs:read"],
                                            KeyKind.TEST)
        self.key = key
        self.key_id = key_row.public_id
        self.tenant_id = tenant.public_id
        self.env["BENCH_TENANT_PK"] = str(tenant.id)

    async def drop_database(self) -> None:
        from herald.database import drop_databases

        await drop_databases(load_settings(self.env), ["platform"])
        client = redis.Redis.from_url(self.env["REDIS_URL"])
        client.flushdb()
        client.close()

    def wait_http(self, port: int) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code in (200, 404):
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise SystemExit(f"bench: nothing answers on {port}; logs in {self.tmp}")

    def serve(self, name: str, target: str, port: int, workers: int = 1) -> subprocess.Popen:
        argv = [sys.executable, "-m", "sanic", target, "--factory", "--host", "127.0.0.1", "--port", str(port),
                "--no-motd", *(["--single-process"] if workers == 1 else ["--workers", str(workers)])]
        process = self.spawn(name, argv, self.env)
        self.wait_http(port)
        return process

    # --- phases --------------------------------------------------------------------------------
    def send_body(self, recipients: int = 1) -> dict:
        return {"Source": "Bench <bench@sandbox.herald.test>",
                "Destination": {"ToAddresses": [f"user{i}@example.com" for i in range(recipients)]},
                "Message": {"Subject": {"Data": "Benchmark"}, "Body": {"Text": {"Data": "Hello from the bench"}}}}

    def request(self, path: str, body: dict, headers: dict[str, str] | None = None) -> bytes:
        return build_request("POST", path, json.dumps(body).encode(),
                             {"Authorization": f"Bearer {self.key}", **(headers or {})}, "127.0.0.1")

    def idempotent_requests(self):
        """A send with a fresh Idempotency-Key each time: every one claims a new record, none replays."""
        body, counter = self.send_body(), iter(range(10**12))
        prefix = f"bench-{self.run_id}-{secrets.token_hex(2)}-"
        return lambda: self.request("/v1/emails/send", body, {"Idempotency-Key": f"{prefix}{next(counter)}"})

    async def alternate(self, streams: dict[str, tuple[int, object]]) -> dict:
        """The streams take turns, round after round, so drift of the machine (frequency,
        neighbours) touches them alike; each Herald stream's ratio to the floor ("floor") is the
        median of the rounds' ratios."""
        args = self.args
        for name, (port, request) in streams.items():
            await closed_loop("127.0.0.1", port, request, args.concurrency, args.warmup, 202)
        per_round = args.seconds / args.rounds
        results: dict[str, list] = {name: [] for name in streams}
        for round_ in range(args.rounds):
            for name, (port, request) in streams.items():
                say(f"accept: {name}, round {round_ + 1}/{args.rounds}, concurrency {args.concurrency}, "
                    f"{per_round:.1f}s")
                results[name].append(await closed_loop("127.0.0.1", port, request, args.concurrency, per_round, 202))
        summary: dict = {name: merge(rounds).summary(202) for name, rounds in results.items()}
        for name in streams:
            if name == "floor":
                continue
            ratios = sorted(h.requests / h.elapsed / (f.requests / f.elapsed)
                            for f, h in zip(results["floor"], results[name]))
            summary[name]["round_ratios"] = [round(r, 3) for r in ratios]
            summary[name]["ratio"] = round(ratios[len(ratios) // 2], 3)
        return summary

    async def accept(self) -> dict:
        """Floor, Herald without and Herald with an Idempotency-Key, one process each."""
        floor_port = free_port()
        floor = self.serve("floor", "bench.floor:create_app", floor_port)
        summary = await self.alternate({
            "floor": (floor_port, self.request("/v1/emails/send", self.send_body())),
            "herald": (self.platform_port, self.request("/v1/emails/send", self.send_body())),
            "herald_idempotent": (self.platform_port, self.idempotent_requests()),
        })
        self.stop(floor)
        # Kept at the top level too: the README and earlier results read accept.ratio.
        summary["round_ratios"] = summary["herald"]["round_ratios"]
        summary["ratio"] = summary["herald"]["ratio"]
        return summary

    async def two_workers(self) -> dict:
        """HTTP_WORKERS=2 (`herald serve`, Sanic's multi-process mode: one listening socket shared by
        two worker processes) against the floor run the same way (`sanic --workers 2`)."""
        floor_port, port = free_port(), free_port()
        floor = self.serve("floor-2w", "bench.floor:create_app", floor_port, workers=2)
        env = {**self.env, "HTTP_WORKERS": "2", "PLATFORM_PORT": str(port)}
        platform = self.spawn("platform-2w", [sys.executable, "-m", "herald.cli", "serve", "platform"], env)
        self.wait_http(port)
        try:
            return await self.alternate({
                "floor": (floor_port, self.request("/v1/emails/send", self.send_body())),
                "herald": (port, self.request("/v1/emails/send", self.send_body())),
                "herald_idempotent": (port, self.idempotent_requests()),
            })
        finally:
            self.stop(platform)
            self.stop(floor)

    async def batch(self) -> dict:
        say("batch: 500 items per request, concurrency 2")
        result = await closed_loop("127.0.0.1", self.platform_port,
                                   self.request("/v1/emails/batch", {"Messages": [self.send_body()] * 500}),
                                   2, self.args.batch_seconds, 202, warmup=2)
        summary = result.summary(202)
        summary["messages_per_second"] = round(summary["rps"] * 500, 1)
        return summary

    def noop_baseline(self, count: int = 5000) -> dict:
        say(f"baseline: {count} no-op Dramatiq messages")
        from dramatiq import Message
        from dramatiq.brokers.redis import RedisBroker

        broker = RedisBroker(url=self.env["REDIS_URL"], namespace="herald-bench-noop", middleware=[])
        for index in range(count):
            broker.enqueue(Message(queue_name="bench_noop", actor_name="bench.noop", args=(index,), kwargs={},
                                   options={}))
        started = time.perf_counter()
        worker = self.spawn("noop-worker", [sys.executable, "-m", "dramatiq", "bench.noop", "--processes", "1",
                                            "--threads", "8"], self.env)
        client = redis.Redis.from_url(self.env["REDIS_URL"])
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if client.llen("herald-bench-noop:bench_noop") == 0 and client.hlen("herald-bench-noop:bench_noop.msgs") == 0:
                break
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
        self.stop(worker)
        broker.close()
        client.close()
        return {"messages": count, "seconds": round(elapsed, 2), "messages_per_second": round(count / elapsed, 1),
                "note": "includes the worker's start-up"}

    async def end_to_end(self) -> dict:
        args = self.args
        await self._clear_backlog()
        worker = self.spawn("worker", [sys.executable, "-m", "herald.cli", "worker", "--processes", "1",
                                       "--threads", "8"], self.env)
        scheduler = self.spawn("scheduler", [sys.executable, "-m", "herald.cli", "scheduler"], self.env)
        time.sleep(3)
        say(f"end to end: {args.rate} messages/s for {args.e2e_seconds}s")
        result = await open_loop("127.0.0.1", self.platform_port, self.request("/v1/emails/send", self.send_body()),
                                 args.rate, args.e2e_seconds, 202)
        accepted = dict((message_id, at) for at, message_id in message_ids(result))
        sink = Path(self.env["HERALD_VAR_DIR"]) / "sink" / "email"
        deadline = time.monotonic() + 60
        recorded: dict[str, float] = {}
        while time.monotonic() < deadline and len(recorded) < len(accepted):
            for path in sink.glob("msg_*.json"):
                if path.stem in accepted and path.stem not in recorded:
                    recorded[path.stem] = datetime.fromisoformat(json.loads(path.read_text())["RecordedAt"]).timestamp()
            time.sleep(0.2)
        latencies = sorted(max(0.0, recorded[m] - accepted[m]) for m in recorded)
        first_accept = min(accepted.values()) if accepted else 0
        last_record = max(recorded.values()) if recorded else 0
        lag = await self._relay_lag()
        self.stop(worker)
        self.stop(scheduler)

        def pct(values: list[float], p: float) -> float:
            return round(values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000, 1) \
                if values else float("nan")

        return {
            "offered_rate": args.rate,
            "accept": result.summary(202),
            "accepted": len(accepted),
            "delivered": len(recorded),
            "latency_p50_ms": pct(latencies, 50),
            "latency_p99_ms": pct(latencies, 99),
            "delivered_per_second": round(len(recorded) / (last_record - first_accept), 1) if recorded else 0,
            "relay_lag_p50_ms": lag[0],
            "relay_lag_p95_ms": lag[1],
        }

    async def _connect(self) -> asyncpg.Connection:
        return await asyncpg.connect(self.env["PLATFORM_DATABASE_URL"].replace("postgres://", "postgresql://", 1))

    async def _clear_backlog(self) -> None:
        """The accept and batch phases leave tens of thousands of queued messages: measure end to
        end on a clean slate, not behind that backlog."""
        connection = await self._connect()
        try:
            await connection.execute("TRUNCATE outbox, message_events, messages")
            self.outbox_from = 0
        finally:
            await connection.close()

    async def _relay_lag(self) -> tuple[float, float]:
        connection = await self._connect()
        try:
            row = await connection.fetchrow(
                "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, "
                "percentile_cont(0.95) WITHIN GROUP (ORDER BY lag) AS p95 FROM ("
                "SELECT extract(epoch FROM published_at - created_at) * 1000 AS lag FROM outbox "
                "WHERE id > $1 AND published_at IS NOT NULL) s", self.outbox_from)
        finally:
            await connection.close()
        return (round(row["p50"] or 0, 1), round(row["p95"] or 0, 1))

    # --- the run -------------------------------------------------------------------------------
    async def run(self) -> dict:
        self.services()
        await self.prepare_database()
        platform = self.spawn("platform", [sys.executable, "-m", "sanic", "app.platform:create_app", "--factory",
                                           "--host", "127.0.0.1", "--port", str(self.platform_port),
                                           "--single-process", "--no-motd"], self.env)
        self.wait_http(self.platform_port)
        results: dict = {}
        if self.args.only_scale:
            results["scale"] = await self.scale()
            return results
        results["accept"] = await self.accept()
        if self.args.profile:
            results["profile"] = await self.profile(platform)
        results["batch"] = await self.batch()
        if not self.args.skip_workers:
            results["two_workers"] = await self.two_workers()
        if not self.args.skip_e2e:
            results["noop_baseline"] = self.noop_baseline()
            results["end_to_end"] = await self.end_to_end()
            if not self.args.skip_smtp:  # bench/smtp_e2e.py: through SMTP + DKIM, its own stack
                results["smtp_e2e"] = await smtp_e2e.run(os.cpu_count() or 1, 8, 3000, self.args.rate, 20)
        if not self.args.skip_idle:  # bench/idle.py: `herald up` with no traffic
            results["idle"] = await asyncio.to_thread(idle.measure)
        if self.args.scale_rows:
            results["scale"] = await self.scale()
        return results

    async def scale(self) -> dict:
        """Seed request logs and messages by the million, then time the read routes and keep their plans."""
        rows = self.args.scale_rows
        connection = await self._connect()
        try:
            say(f"scale: seeding {rows:,} request-log rows and {rows:,} messages (INSERT ... SELECT generate_series)")
            started = time.perf_counter()
            seeded = await scale.seed(connection, int(self.env["BENCH_TENANT_PK"]), self.key_id, rows)
            seeded["total_s"] = round(time.perf_counter() - started, 1)
            say(f"scale: seeded in {seeded['total_s']} s {seeded}")
            probes = await scale.probes(connection, int(self.env["BENCH_TENANT_PK"]), self.tenant_id, self.key_id,
                                        rows, self.env["SECRET_KEY"])
            routes, plans = [], {}
            for probe in probes:
                say(f"scale: {probe.name}")
                routes.append(await scale.time_route(f"http://127.0.0.1:{self.platform_port}", self.key, probe,
                                                     self.args.scale_samples))
                plans[probe.name] = await scale.explain(connection, probe)
        finally:
            await connection.close()
        return {"rows": rows, "seed": seeded, "routes": routes, "plans": plans}

    async def profile(self, platform: subprocess.Popen) -> str:
        """py-spy over the platform process during a short accept run (needs py-spy installed)."""
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        out = RESULTS / f"profile-accept-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}.txt"
        recorder = subprocess.Popen([spy, "record", "--pid", str(platform.pid), "--duration", "10", "--format",
                                     "raw", "--output", str(out), "--nonblocking"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await closed_loop("127.0.0.1", self.platform_port, self.request("/v1/emails/send", self.send_body()),
                          self.args.concurrency, 10, 202)
        recorder.wait(60)
        return str(out.relative_to(ROOT))

    def close(self) -> dict[str, float]:
        """Stop what the bench started, but the embedded servers (see close_services)."""
        for process in reversed(self.children):
            if process not in self.services_started:
                self.stop(process)
        return self.memory.stop()

    def close_services(self) -> None:
        for process in reversed(self.services_started):
            self.stop(process)


def machine() -> dict:
    return {"cores": os.cpu_count(), "memory_gib": round(psutil.virtual_memory().total / 2**30, 1),
            "python": host_platform.python_version(), "platform": host_platform.platform(terse=True)}


def markdown(report: dict) -> str:
    accept, batch = report["results"].get("accept"), report["results"].get("batch")
    lines = [
        f"Herald benchmark, {report['date']} on {report['machine']['cores']} cores, "
        f"{report['machine']['memory_gib']} GiB (`{report['command']}`)",
        "",
        "| measure | Herald | baseline | ratio |",
        "|---|---|---|---|",
        *accept_rows(report["results"], report["parameters"]["concurrency"]),
    ]
    if batch:
        lines += [f"| batch, 500 items | {batch['messages_per_second']} messages/s, p50 {batch['p50_ms']} ms, "
                  f"p99 {batch['p99_ms']} ms, errors {batch['errors']} | | |"]
    e2e = report["results"].get("end_to_end")
    if e2e:
        noop = report["results"]["noop_baseline"]
        lines += [
            f"| end to end at {e2e['offered_rate']}/s: 202 to sink | p50 {e2e['latency_p50_ms']} ms, "
            f"p99 {e2e['latency_p99_ms']} ms; {e2e['delivered']}/{e2e['accepted']} delivered, "
            f"{e2e['delivered_per_second']}/s | no-op actor: {noop['messages_per_second']}/s | |",
            f"| relay lag (commit to enqueue) | p50 {e2e['relay_lag_p50_ms']} ms, p95 {e2e['relay_lag_p95_ms']} ms"
            " | | |",
        ]
    memory = ", ".join(f"{name} {mib} MiB" for name, mib in report["peak_rss_mib"].items())
    lines += scale_rows(report["results"])
    lines += smtp_e2e.rows(report["results"]) + idle.rows(report["results"])
    lines += [f"| peak RSS | {memory} | | |"]
    if accept:
        lines += [f"| load generator CPU share (accept) | {accept['herald']['generator_cpu_share']} of one core | | |"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5, help="alternations of floor and Herald in accept")
    parser.add_argument("--batch-seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--e2e-seconds", type=float, default=30)
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument("--skip-smtp", action="store_true", help="skip end to end through SMTP (bench/smtp_e2e.py)")
    parser.add_argument("--skip-idle", action="store_true", help="skip idle `herald up` CPU (bench/idle.py)")
    parser.add_argument("--profile", action="store_true", help="py-spy the platform during accept")
    parser.add_argument("--skip-workers", action="store_true", help="skip accept with HTTP_WORKERS=2")
    parser.add_argument("--scale-rows", type=int, default=5_000_000,
                        help="request-log rows and messages seeded by the scale step (0 skips it)")
    parser.add_argument("--scale-samples", type=int, default=40, help="requests timed per read route")
    parser.add_argument("--only-scale", action="store_true", help="run the scale step alone")
    args = parser.parse_args()

    bench = Bench(args)
    started = time.monotonic()
    completed = False
    try:
        results = asyncio.run(bench.run())
        completed = True
    finally:
        peaks = bench.close()
        try:
            if bench.env:
                asyncio.run(bench.drop_database())
        finally:
            bench.close_services()
            if completed:
                shutil.rmtree(bench.tmp, ignore_errors=True)
            else:
                say(f"failed; process logs kept in {bench.tmp}")
    now = datetime.now(timezone.utc)
    report = {"date": now.strftime("%Y-%m-%d %H:%M UTC"), "machine": machine(),
              "command": "make bench", "parameters": vars(args), "results": results, "peak_rss_mib": peaks,
              "wall_seconds": round(time.monotonic() - started, 1)}
    RESULTS.mkdir(exist_ok=True)
    stem = RESULTS / now.strftime("%Y-%m-%d")
    stem.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n")
    table = markdown(report)
    stem.with_suffix(".md").write_text(table)
    plans = plans_text(results)
    if plans:
        # The plans behind the scale rows: index use and the partitions each log query touched.
        Path(f"{stem}-plans.txt").write_text(plans)
        print(plans)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
