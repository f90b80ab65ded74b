"""End to end through a real provider: live e-mail over SMTP with DKIM to a local aiosmtpd server.

On the stack of bench/chaos.py (roles as separate processes, worker processes for the machine's
cores, its own Redis and database, a verified sender domain):

1. no-op baseline: a no-op Dramatiq actor (bench/noop.py) on the same Redis with the same worker
   processes and threads, timed from the first message taken to the queue drained;
1b. the delivery floor (bench/delivery_floor.py, issue 46): --burst e-mails of a campaign signed
   with DKIM and sent over reused connections to the same SMTP server by a minimal program with the
   same processes and deliveries in flight, no database;
2. throughput: --burst e-mails of a campaign (each recipient's subject and body its own) accepted
   as fast as the API takes them (batches of 500), timed from the first accept to the last one
   received by the SMTP server: delivered per second, that divided by the floor's rate (target
   0.5) and by the no-op rate; and the CPU time each role spent per delivered
   message meanwhile (worker, platform, scheduler, PostgreSQL's backends, this process), a figure
   a shared machine hardly moves;
3. latency: an open loop at --rate e-mails a second for --seconds, each from its request to its
   arrival at the SMTP server (p50/p99; bound: p99 under 1 s at 200/s), the gap from the SMTP
   server's accept to `sent` recorded, and the relay lag (outbox commit to enqueue; p95 under
   100 ms);
4. ceiling: the ratio this machine could reach at most if a delivery cost only its RSA-2048
   signature (measured here, in OpenSSL) and the local SMTP receiver's CPU, so a ratio is read
   against what the cores allow;
5. drain (bench/drain.py, issue 46): --drain e-mails of the campaign (100,000; 0 skips) accepted
   at once, their delivered rate against the burst's, and each Herald process's RSS (each role's
   processes by pid) sampled every 0.25 s: its peak over its value once the first --drain-settle
   (10,000) were delivered, bound 1.2.

`python -m bench.smtp_e2e`; `make bench` runs it after its own end-to-end step (`--smtp-drain`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time

import psutil
import redis

from bench.campaign import accept_campaign, campaign_email
from bench.chaos import LiveStack, say
from bench.delivery_floor import smtp_floor
from bench.drain import drain


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return round(values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] * 1000, 1)


def noop_rate(redis_url: str, processes: int, threads: int, count: int = 5000) -> dict:
    """The no-op actor's rate with these worker processes, its start-up left out."""
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker

    broker = RedisBroker(url=redis_url, namespace="herald-bench-noop", middleware=[])
    client = redis.Redis.from_url(redis_url)
    queue = "herald-bench-noop:bench_noop"
    worker = subprocess.Popen([sys.executable, "-m", "dramatiq", "bench.noop", "--processes", str(processes),
                               "--threads", str(threads)], env={**os.environ, "REDIS_URL": redis_url},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        # Warm-up message: the worker is up once it is gone.
        broker.enqueue(Message(queue_name="bench_noop", actor_name="bench.noop", args=(-1,), kwargs={}, options={}))
        deadline = time.monotonic() + 120
        while client.hlen(f"{queue}.msgs") and time.monotonic() < deadline:
            time.sleep(0.05)
        client_messages = [Message(queue_name="bench_noop", actor_name="bench.noop", args=(index,), kwargs={},
                                   options={}) for index in range(count)]
        started = time.perf_counter()
        for message in client_messages:
            broker.enqueue(message)
        while (client.llen(queue) or client.hlen(f"{queue}.msgs")) and time.monotonic() < deadline:
            time.sleep(0.02)
        elapsed = time.perf_counter() - started
    finally:
        worker.terminate()
        worker.wait(30)
        broker.close()
        client.close()
    return {"messages": count, "seconds": round(elapsed, 2), "messages_per_second": round(count / elapsed, 1),
            "note": "timed from the first enqueue (worker already running) to the queue drained"}


def _role_processes(stack: LiveStack) -> dict[str, list[psutil.Process]]:
    """The processes of each role of the stack (with their children), this process (the load
    generator and the aiosmtpd receiver) and the PostgreSQL backends serving the stack's database."""
    roles: dict[str, list[psutil.Process]] = {}
    for child in stack.supervisor.children:
        if child.alive:
            try:
                top = psutil.Process(child.process.pid)
                roles[child.name] = [top, *top.children(recursive=True)]
            except psutil.Error:
                pass
    roles["bench (client + SMTP receiver)"] = [psutil.Process(), psutil.Process(stack.receiver.pid)]
    database = stack.env["PLATFORM_DATABASE_URL"].rsplit("/", 1)[-1]
    backends = []
    for process in psutil.process_iter():
        try:
            if process.name().startswith("postgres") and f" {database} " in " ".join(process.cmdline()):
                backends.append(process)
        except psutil.Error:
            pass
    roles["postgres (its backends)"] = backends
    return roles


def _add_new_processes(stack: LiveStack, roles: dict[str, list[psutil.Process]]) -> None:
    """Again at the end of a step: a backend or a child that started meanwhile counts from zero."""
    for name, processes in _role_processes(stack).items():
        known = {process.pid for process in roles.get(name, [])}
        roles.setdefault(name, []).extend(process for process in processes if process.pid not in known)


def _cpu_seconds(roles: dict[str, list[psutil.Process]]) -> dict[int, float]:
    found = {}
    for processes in roles.values():
        for process in processes:
            try:
                times = process.cpu_times()
                found[process.pid] = times.user + times.system
            except psutil.Error:
                pass
    return found


def _cpu_per_message(roles, before: dict[int, float], after: dict[int, float], count: int) -> dict[str, float]:
    """CPU milliseconds per delivered message, per role: less sensitive to a shared machine than
    messages per second (a busy neighbour slows the run, it hardly adds to each message's cost)."""
    return {name: round(sum(after.get(p.pid, 0.0) - before.get(p.pid, 0.0) for p in processes) * 1000
                        / max(count, 1), 2) for name, processes in roles.items()}


async def burst(stack: LiveStack, count: int) -> dict:
    receiver = stack.receiver
    before = receiver.count()
    roles = _role_processes(stack)
    cpu_before = _cpu_seconds(roles)
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    await accept_campaign(stack, 10_000_000, count)
    accepted_in = time.monotonic() - started
    deadline = time.monotonic() + 600
    while receiver.count() - before < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    arrivals, _ = receiver.snapshot()
    elapsed = max(t for times in arrivals.values() for t in times) - started
    delivered = len(arrivals) - before
    _add_new_processes(stack, roles)
    cpu = _cpu_per_message(roles, cpu_before, _cpu_seconds(roles), delivered)
    return {"messages": count, "delivered": delivered, "accept_seconds": round(accepted_in, 2),
            "seconds": round(elapsed, 2), "delivered_per_second": round(delivered / elapsed, 1),
            "cpu_ms_per_message": cpu, "load_average": [round(load_before, 1), round(os.getloadavg()[0], 1)]}


async def latency(stack: LiveStack, rate: float, seconds: float) -> dict:
    receiver = stack.receiver
    count = int(rate * seconds)
    outbox_from = await _max_outbox(stack)
    started = time.monotonic()
    accepted, errors = await _send_at_rate(stack, rate, count)
    send_seconds = time.monotonic() - started

    def by_herald_id() -> dict[str, float]:
        arrivals, herald_ids = receiver.snapshot()
        return {herald_ids[mid]: times[0] for mid, times in arrivals.items()}

    deadline = time.monotonic() + 120
    while not set(accepted) <= set(by_herald_id()) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    arrived = by_herald_id()
    latencies = [arrived[m] - at for m, at in accepted.items() if m in arrived]
    gaps, lag = await _sent_gap_and_lag(stack, accepted, arrived, outbox_from)
    return {"offered_rate": rate, "seconds": seconds, "send_seconds": round(send_seconds, 2),
            "accepted": len(accepted), "errors": errors,
            "delivered": len(latencies), "latency_p50_ms": _pct(latencies, 50), "latency_p99_ms": _pct(latencies, 99),
            "smtp_to_sent_p50_ms": _pct(gaps, 50), "smtp_to_sent_p99_ms": _pct(gaps, 99),
            "relay_lag_p50_ms": lag[0], "relay_lag_p95_ms": lag[1]}


async def _send_at_rate(stack: LiveStack, rate: float, count: int) -> tuple[dict[str, float], int]:
    """Single sends started at a steady rate whatever the answers do, on raw keep-alive sockets
    (bench/load.py ``open_loop``): an HTTP client library here would spend more CPU than the
    platform's accept and fall behind the schedule on a small machine. Each accepted message's start
    time, by id: the latency includes the accept (its 202 may be read after the e-mail arrived)."""
    from itertools import count as counter
    from urllib.parse import urlsplit

    from bench.load import build_request, open_loop

    address, numbers = urlsplit(stack.url), counter(20_000_000)

    def request() -> bytes:
        body = json.dumps(campaign_email(stack.domain, next(numbers))).encode()
        return build_request("POST", "/v1/emails/send", body, {"Authorization": f"Bearer {stack.key}"},
                             address.netloc)

    result = await open_loop(address.hostname, address.port, request, rate, count / rate, 202, connections=64)
    accepted = {json.loads(body)["MessageId"]: sent_at for sent_at, status, body in result.sends if status == 202}
    return accepted, result.errors


async def _max_outbox(stack: LiveStack) -> int:
    connection = await stack.connect()
    try:
        return int(await connection.fetchval("SELECT COALESCE(max(id), 0) FROM outbox"))
    finally:
        await connection.close()


async def _sent_gap_and_lag(stack, accepted, arrivals, outbox_from) -> tuple[list[float], tuple[float, float]]:
    """SMTP accept to `sent` recorded, per message (wall clocks: the receiver's monotonic arrival
    is turned into wall time with one offset), and the relay lag percentiles."""
    offset = time.time() - time.monotonic()
    connection = await stack.connect()
    try:
        rows = await connection.fetch(
            "SELECT m.public_id, extract(epoch FROM e.created_at) AS at FROM messages m "
            "JOIN message_events e ON e.message_id = m.id AND e.type = 'sent' WHERE m.public_id = ANY($1::text[])",
            list(accepted))
        lag = await connection.fetchrow(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, "
            "percentile_cont(0.95) WITHIN GROUP (ORDER BY lag) AS p95 FROM ("
            "SELECT extract(epoch FROM published_at - created_at) * 1000 AS lag FROM outbox "
            "WHERE id > $1 AND published_at IS NOT NULL) s", outbox_from)
    finally:
        await connection.close()
    gaps = [float(row["at"]) - (arrivals[row["public_id"]] + offset) for row in rows if row["public_id"] in arrivals]
    return gaps, (round(lag["p50"] or 0, 1), round(lag["p95"] or 0, 1))


async def run(processes: int, threads: int, burst_count: int, rate: float, seconds: float, drain_count: int = 0,
              drain_settle: int = 10_000) -> dict:
    async with LiveStack(processes, threads) as stack:
        say(f"smtp e2e: {processes} worker processes x {threads} threads; no-op baseline")
        baseline = await asyncio.to_thread(noop_rate, stack.redis.url, processes, threads)
        say(f"smtp e2e: delivery floor, {burst_count} messages")
        floor = await asyncio.to_thread(smtp_floor, stack.receiver, processes, threads, burst_count)
        say(f"smtp e2e: burst of {burst_count}")
        throughput = await burst(stack, burst_count)
        say(f"smtp e2e: {rate}/s for {seconds}s")
        steady = await latency(stack, rate, seconds)
        drained = None
        if drain_count:
            say(f"smtp e2e: drain of {drain_count}, RSS noted after {drain_settle}")
            drained = await drain(stack, drain_count, throughput["delivered_per_second"], drain_settle)
    ratio = round(throughput["delivered_per_second"] / baseline["messages_per_second"], 3)
    return {"worker_processes": processes, "worker_threads": threads, "noop_baseline": baseline,
            "floor": floor, "ratio_to_floor": round(throughput["delivered_per_second"] / floor["messages_per_second"], 3),
            "throughput": throughput, "ratio_to_noop": ratio, "target_ratio": 0.5, "steady": steady,
            "ceiling": ceiling(throughput, baseline), **({"drain": drained} if drained else {})}


def rsa_sign_ms(signatures: int = 200) -> float:
    """CPU ms of one RSA-2048 PKCS#1 v1.5 signature in OpenSSL: the step of DKIM that no code of
    Herald's can make cheaper (providers/dkim_signing.py signs with exactly this)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    digest = b"\x00" * 32
    key.sign(digest, padding.PKCS1v15(), hashes.SHA256())
    started = time.process_time()
    for _ in range(signatures):
        key.sign(digest, padding.PKCS1v15(), hashes.SHA256())
    return round((time.process_time() - started) / signatures * 1000, 3)


def ceiling(throughput: dict, baseline: dict) -> dict:
    """The most the ratio could be on this machine if a delivery cost nothing but its RSA signature
    and the local SMTP receiver's work (both on the machine's cores, like everything else)."""
    rsa_ms = rsa_sign_ms()
    receiver_ms = (throughput.get("cpu_ms_per_message") or {}).get("bench (client + SMTP receiver)", 0.0)
    cores = os.cpu_count() or 1
    rate = cores * 1000 / (rsa_ms + receiver_ms)
    return {"rsa_sign_ms": rsa_ms, "receiver_ms": receiver_ms, "cores": cores,
            "max_delivered_per_second": round(rate, 1),
            "max_ratio_to_noop": round(rate / baseline["messages_per_second"], 3)}


def rows(results: dict) -> list[str]:
    """The bench table's rows for this step."""
    found = results.get("smtp_e2e")
    if not found:
        return []
    throughput, steady, noop = found["throughput"], found["steady"], found["noop_baseline"]
    workers = f"{found['worker_processes']} worker processes x {found['worker_threads']} threads"
    cpu = ", ".join(f"{name} {value}" for name, value in (throughput.get("cpu_ms_per_message") or {}).items())
    floor = found.get("floor")
    return ([
        f"| delivered through SMTP + DKIM, a campaign burst of {throughput['messages']}, {workers} | "
        f"{throughput['delivered_per_second']} messages/s | delivery floor (`bench/delivery_floor.py`: DKIM, "
        f"reused connections, same processes and in-flight, no database): {floor['messages_per_second']} "
        f"messages/s, CPU ms a message {floor['cpu_ms_per_message']} | **{found['ratio_to_floor']}** "
        f"(target 0.5) |"] if floor else []) + [
        f"| delivered through SMTP + DKIM, burst of {throughput['messages']}, {workers} | "
        f"{throughput['delivered_per_second']} messages/s | no-op Dramatiq, same workers: "
        f"{noop['messages_per_second']} messages/s | {found['ratio_to_noop']} |",
        f"| CPU per delivered message in that burst (ms; load average {throughput.get('load_average')}) | "
        f"{cpu} | | |",
        f"| end to end through SMTP at {steady['offered_rate']}/s | p50 {steady['latency_p50_ms']} ms, "
        f"p99 {steady['latency_p99_ms']} ms ({steady['delivered']}/{steady['accepted']} delivered) | "
        f"p99 bound 1000 ms | SMTP accept to `sent` p50 {steady['smtp_to_sent_p50_ms']} ms, "
        f"p99 {steady['smtp_to_sent_p99_ms']} ms |",
        f"| relay lag (SMTP run) | p50 {steady['relay_lag_p50_ms']} ms, p95 {steady['relay_lag_p95_ms']} ms | "
        f"p95 bound 100 ms | |",
    ] + ([
        f"| ceiling of that ratio here: RSA-2048 signature {top['rsa_sign_ms']} ms + SMTP receiver "
        f"{top['receiver_ms']} ms of CPU a message, nothing else, on {top['cores']} cores | at most "
        f"{top['max_delivered_per_second']} messages/s | no-op: {noop['messages_per_second']} messages/s | "
        f"at most {top['max_ratio_to_noop']} |"] if (top := found.get("ceiling")) else []) + _drain_rows(
        found.get("drain"))


def _drain_rows(drained: dict | None) -> list[str]:
    if not drained:
        return []
    worst = drained["worst_process"]
    rss = drained["rss"].get(worst, {})
    memory = (f"{worst}: {rss['rss_mib_after_settle']} to {rss['peak_mib']} MiB, growth {drained['worst_growth']}"
              if worst else f"fewer than {drained['settle']} delivered")
    verdict = "within" if drained["within_bound"] else "**over**" if worst else "not measured"
    return [
        (f"| drain: a campaign burst of {drained['messages']} through SMTP + DKIM | "
         f"{drained['delivered_per_second']} messages/s ({drained['delivered']} delivered in {drained['seconds']} s, "
         f"{drained.get('handed_back', 0)} handed back by the reconciler) "
         f"| the burst step: {drained['burst_delivered_per_second']} messages/s; bound: at its rate "
         f"({drained['rate_bound']} of it, for the noise between two runs) | **{drained['ratio_to_burst']}**"
         f"{'' if drained['rate_within_bound'] else ': not met'} |"),
        (f"| drain: peak RSS of each Herald process over its RSS after the first {drained['settle']} (worst) | "
         f"{memory} | bound {drained['growth_bound']} | {verdict} |")]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.smtp_e2e")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--burst", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--drain", type=int, default=100_000, help="e-mails of the drain step (0 skips it)")
    parser.add_argument("--drain-settle", type=int, default=10_000,
                        help="delivered e-mails after which the drain notes each process's RSS")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.processes, args.threads, args.burst, args.rate, args.seconds, args.drain,
                                     args.drain_settle)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
