"""`python -m bench`: how fast Herald accepts and delivers, each figure next to a baseline measured
in the same run on the same machine.

1. accept: POST /v1/emails/send (one recipient) at concurrency 32, against the floor (a minimal
   Sanic handler inserting the same two rows with raw asyncpg); then at concurrency 1 and 4, the p99
   against the floor's plus 5 ms (batching is never bought with latency);
2. batch: POST /v1/emails/batch with 500 items;
3. end to end: a steady offered load (200 messages/s) from the 202 to the sink's record, with the
   relay lag (outbox commit to enqueue); baseline: a no-op Dramatiq actor's throughput;
4. memory: peak RSS of every process it started;
5. workers: accept again with HTTP_WORKERS=2, against the floor in two processes;
6. scale: request logs and messages seeded by the million, the read routes' p95 and their plans
   (bench/scale.py);
7. through SMTP: live e-mail with DKIM to a local SMTP server, delivered rate against the no-op
   rate with the same worker processes, p99 at the offered rate, relay lag, a drain of 100,000
   e-mails with each process's RSS growth (bench/smtp_e2e.py, bench/drain.py);
   and through the HTTP providers (Twilio, FCM, WhatsApp Cloud) against local servers, each
   channel's delivered rate against the no-op rate (bench/providers_e2e.py);
8. idle: `herald up` with no traffic, the CPU of every process (bench/idle.py);
9. console: four of the console's pages, p50/p95 of sequential requests signed in once, and each
   page's weight with its scripts and styles, gzipped (bench/console.py).

Uses DATABASE_URL / REDIS_URL when set, else starts the embedded servers. Creates its own
databases and drops them at the end. Results: bench/results/<date>.json and .md.
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
import time
from datetime import datetime, timezone
from pathlib import Path

from bench import delivery, idle, providers_e2e, scale, smtp_e2e
from bench import cpu
from bench.load import build_request, closed_loop, merge
from bench.report import machine, markdown, plans_text
from bench.stage import ROOT, Stage, free_port, say

RESULTS = Path(__file__).resolve().parent / "results"
LATENCY_MARGIN_MS = 5.0  # Herald's p99 at concurrency 1 and 4: at most the floor's plus this (issue 46)


class Bench(Stage):
    """The phases, each a method on the stage they run on."""

    def __init__(self, args: argparse.Namespace) -> None:
        super().__init__(args)
        # Kept as each step ends: a step that fails late does not take the others' figures with it.
        self.results: dict = {}

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
        servers = {name: cpu.server_of(port) for name, (port, _) in streams.items()}

        spent: dict[str, dict[str, float]] = {name: {} for name in streams}
        for round_ in range(args.rounds):
            for name, (port, request) in streams.items():
                say(f"accept: {name}, round {round_ + 1}/{args.rounds}, concurrency {args.concurrency}, "
                    f"{per_round:.1f}s")
                before = cpu.sample(servers[name])
                results[name].append(await closed_loop("127.0.0.1", port, request, args.concurrency, per_round, 202))
                after = cpu.sample(servers[name])
                for group in after:
                    spent[name][group] = spent[name].get(group, 0.0) + after[group] - before[group]
        summary: dict = {name: merge(rounds).summary(202) for name, rounds in results.items()}
        for name, rounds in results.items():  # where the time goes: CPU per answered request
            answered = sum(result.requests for result in rounds)
            summary[name]["cpu_us"] = cpu.per_request({group: 0.0 for group in spent[name]}, spent[name], answered)
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
        summary["low_concurrency"] = await self.low_concurrency(floor_port)
        self.stop(floor)
        # Kept at the top level too: the README and earlier results read accept.ratio.
        summary["round_ratios"] = summary["herald"]["round_ratios"]
        summary["ratio"] = summary["herald"]["ratio"]
        return summary

    async def low_concurrency(self, floor_port: int) -> dict:
        """Latency where batching could cost it (issue 46): at concurrency 1 and 4, floor and Herald
        taking turns for --latency-rounds rounds; bound: Herald's p99 at most the floor's + 5 ms."""
        args, found = self.args, {}
        streams = {"floor": (floor_port, self.request("/v1/emails/send", self.send_body())),
                   "herald": (self.platform_port, self.request("/v1/emails/send", self.send_body())),
                   "herald_idempotent": (self.platform_port, self.idempotent_requests())}
        for concurrency in (1, 4):
            results: dict[str, list] = {name: [] for name in streams}
            for round_ in range(args.latency_rounds):
                for name, (port, request) in streams.items():
                    say(f"accept: {name}, concurrency {concurrency}, round {round_ + 1}/{args.latency_rounds}")
                    results[name].append(await closed_loop("127.0.0.1", port, request, concurrency,
                                                           args.latency_seconds / args.latency_rounds, 202))
            summary = {name: merge(runs).summary(202) for name, runs in results.items()}
            bound = round(summary["floor"]["p99_ms"] + LATENCY_MARGIN_MS, 2)
            for name in ("herald", "herald_idempotent"):
                summary[name]["p99_bound_ms"] = bound
                summary[name]["within_bound"] = summary[name]["p99_ms"] <= bound
            found[str(concurrency)] = summary
        return found

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

    # --- the run -------------------------------------------------------------------------------
    async def run(self) -> dict:
        self.services()
        await self.prepare_database()
        self.results["postgres"] = await self.postgres_settings()
        platform = self.spawn("platform", [sys.executable, "-m", "sanic", "app.platform:create_app", "--factory",
                                           "--host", "127.0.0.1", "--port", str(self.platform_port),
                                           "--single-process", "--no-motd"], self.env)
        self.wait_http(self.platform_port)
        # The request log's rows are built and written by the stream consumer, as in production.
        self.spawn("request-log-consumer", [sys.executable, "-m", "herald.cli", "consume", "--kinds", "request-log"],
                   self.env)
        results = self.results
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
            results["noop_baseline"] = delivery.noop_baseline(self)
            results["end_to_end"] = await delivery.end_to_end(self)
            if not self.args.skip_smtp:  # bench/smtp_e2e.py: through SMTP + DKIM, its own stack
                results["smtp_e2e"] = await smtp_e2e.run(os.cpu_count() or 1, 8, 3000, self.args.rate, 20,
                                                         self.args.smtp_drain)
            if not self.args.skip_providers:  # bench/providers_e2e.py: SMS, push, WhatsApp, its own stack
                results["providers_e2e"] = await providers_e2e.run(os.cpu_count() or 1, 8, 2000)
        if not self.args.skip_pages:  # bench/pages.py: the TLS ask's p50/p99 against a pages server
            from bench import pages
            results["pages_tls"] = await pages.run(self)
        if not self.args.skip_runtime:  # bench/runtime.py: /collect and a cached page vs a bare handler
            from bench import runtime
            results["runtime"] = await runtime.run(self)
        if not self.args.skip_console:  # bench/console.py: the console's pages, p95 and weight
            from bench import console
            results["console"] = await console.run(self)
        if not self.args.skip_idle:  # bench/idle.py: `herald up` with no traffic
            results["idle"] = await asyncio.to_thread(idle.measure)
        if not self.args.skip_reports:  # bench/reports.py: the dashboard's reports over millions of messages
            from bench import reports
            results["reports"] = await reports.run(self)
        if self.args.scale_rows:
            results["scale"] = await self.scale()
        return results

    async def postgres_settings(self) -> dict:
        """The server's settings that change what a long run measures. Without autovacuum (a CI
        server may run without it) dead rows and GIN pending lists pile up over a drain of 100,000
        as they never do in production, where it is on (herald up's embedded server has it on)."""
        connection = await self.connect()
        try:
            found = {row["name"]: row["setting"] for row in await connection.fetch(
                "SELECT name, setting FROM pg_settings WHERE name = ANY($1::text[])",
                ["server_version", "autovacuum", "fsync", "synchronous_commit", "shared_buffers", "max_wal_size"])}
        finally:
            await connection.close()
        if found.get("autovacuum") != "on":
            say("PostgreSQL's autovacuum is off on this server: long steps (the drain) slow down as they would not "
                "in production")
        return found

    async def scale(self) -> dict:
        """Seed request logs and messages by the million, then time the read routes and keep their plans."""
        rows = self.args.scale_rows
        connection = await self.connect()
        try:
            say(f"scale: seeding {rows:,} request-log rows and {rows:,} messages (INSERT ... SELECT generate_series)")
            started = time.perf_counter()
            seeded = await scale.seed(connection, int(self.env["BENCH_TENANT_PK"]), self.key_id, rows)
            seeded["total_s"] = round(time.perf_counter() - started, 1)
            say(f"scale: seeded in {seeded['total_s']} s {seeded}")
            probes = await scale.probes(connection, int(self.env["BENCH_TENANT_PK"]), self.tenant_id, self.key_id,
                                        rows, self.env["SECRET_KEY"])
            probes += scale.report_probes(int(self.env["BENCH_TENANT_PK"]), self.tenant_id, await self.signed_in())
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
                                     "raw", "--output", str(out), "--nonblocking", "--subprocesses", "--rate", "250"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await closed_loop("127.0.0.1", self.platform_port, self.request("/v1/emails/send", self.send_body()),
                          self.args.concurrency, 10, 202)
        recorder.wait(60)
        return str(out.relative_to(ROOT))

def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=5, help="alternations of floor and Herald in accept")
    parser.add_argument("--latency-seconds", type=float, default=12,
                        help="per stream, at concurrency 1 and again at 4 (the p99 against the floor's + 5 ms)")
    parser.add_argument("--latency-rounds", type=int, default=3)
    parser.add_argument("--batch-seconds", type=float, default=10)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--e2e-seconds", type=float, default=30)
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument("--skip-smtp", action="store_true", help="skip end to end through SMTP (bench/smtp_e2e.py)")
    parser.add_argument("--smtp-drain", type=int, default=100_000,
                        help="e-mails of the SMTP step's drain, RSS growth bound 1.2 (bench/drain.py; 0 skips it)")
    parser.add_argument("--skip-providers", action="store_true",
                        help="skip end to end through the HTTP providers (bench/providers_e2e.py)")
    parser.add_argument("--skip-idle", action="store_true", help="skip idle `herald up` CPU (bench/idle.py)")
    parser.add_argument("--skip-pages", action="store_true", help="skip the TLS ask bench (bench/pages.py)")
    parser.add_argument("--skip-runtime", action="store_true", help="skip the runtime bench (bench/runtime.py)")
    parser.add_argument("--skip-console", action="store_true", help="skip the console's pages (bench/console.py)")
    parser.add_argument("--console-samples", type=int, default=200, help="requests timed per console page")
    parser.add_argument("--profile", action="store_true", help="py-spy the platform during accept")
    parser.add_argument("--skip-workers", action="store_true", help="skip accept with HTTP_WORKERS=2")
    parser.add_argument("--scale-rows", type=int, default=5_000_000,
                        help="request-log rows and messages seeded by the scale step (0 skips it)")
    parser.add_argument("--scale-samples", type=int, default=40, help="requests timed per read route")
    parser.add_argument("--only-scale", action="store_true", help="run the scale step alone")
    parser.add_argument("--skip-reports", action="store_true", help="skip the reports step (bench/reports.py)")
    parser.add_argument("--report-rows", type=int, default=5_000_000, help="live messages the reports step seeds")
    parser.add_argument("--report-samples", type=int, default=40, help="calls timed per report")
    args = parser.parse_args()

    bench = Bench(args)
    started = time.monotonic()
    completed = False
    try:
        asyncio.run(bench.run())
        completed = True
    except BaseException as error:
        say(f"a step failed ({type(error).__name__}: {error}); the steps before it are reported")
        bench.results["failed"] = f"{type(error).__name__}: {error}"
        raise
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
        write_report(args, bench.results, peaks, started)
    return 0


def write_report(args: argparse.Namespace, results: dict, peaks: dict, started: float) -> None:
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


if __name__ == "__main__":
    raise SystemExit(main())
