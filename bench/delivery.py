"""Delivery phases of `python -m bench`: the no-op Dramatiq baseline, and end to end at a steady
offered rate from the 202 to the sink's record, with the relay lag (outbox commit to enqueue)."""

from __future__ import annotations

import json
import sys
import time
from datetime import datetime
from pathlib import Path

import redis

from bench.load import message_ids, open_loop
from bench.stage import Stage, say


def noop_baseline(stage: Stage, count: int = 5000) -> dict:
    say(f"baseline: {count} no-op Dramatiq messages")
    from dramatiq import Message
    from dramatiq.brokers.redis import RedisBroker

    broker = RedisBroker(url=stage.env["REDIS_URL"], namespace="herald-bench-noop", middleware=[])
    for index in range(count):
        broker.enqueue(Message(queue_name="bench_noop", actor_name="bench.noop", args=(index,), kwargs={},
                               options={}))
    started = time.perf_counter()
    worker = stage.spawn("noop-worker", [sys.executable, "-m", "dramatiq", "bench.noop", "--processes", "1",
                                        "--threads", "8"], stage.env)
    client = redis.Redis.from_url(stage.env["REDIS_URL"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if client.llen("herald-bench-noop:bench_noop") == 0 and client.hlen("herald-bench-noop:bench_noop.msgs") == 0:
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    stage.stop(worker)
    broker.close()
    client.close()
    return {"messages": count, "seconds": round(elapsed, 2), "messages_per_second": round(count / elapsed, 1),
            "note": "includes the worker's start-up"}

async def end_to_end(stage: Stage) -> dict:
    args = stage.args
    await _clear_backlog(stage)
    worker = stage.spawn("worker", [sys.executable, "-m", "herald.cli", "worker", "--processes", "1",
                                   "--threads", "8"], stage.env)
    scheduler = stage.spawn("scheduler", [sys.executable, "-m", "herald.cli", "scheduler"], stage.env)
    time.sleep(3)
    say(f"end to end: {args.rate} messages/s for {args.e2e_seconds}s")
    result = await open_loop("127.0.0.1", stage.platform_port, stage.request("/v1/emails/send", stage.send_body()),
                             args.rate, args.e2e_seconds, 202)
    accepted = dict((message_id, at) for at, message_id in message_ids(result))
    sink = Path(stage.env["HERALD_VAR_DIR"]) / "sink" / "email"
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
    lag = await _relay_lag(stage)
    stage.stop(worker)
    stage.stop(scheduler)

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


async def _clear_backlog(stage: Stage) -> None:
    """The accept and batch phases leave tens of thousands of queued messages: measure end to
    end on a clean slate, not behind that backlog."""
    connection = await stage.connect()
    try:
        # CASCADE: whatever else refers to a message (suppressions, attachments) goes with it.
        await connection.execute("TRUNCATE outbox, message_events, messages CASCADE")
        stage.outbox_from = 0
    finally:
        await connection.close()

async def _relay_lag(stage: Stage) -> tuple[float, float]:
    connection = await stage.connect()
    try:
        row = await connection.fetchrow(
            "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50, "
            "percentile_cont(0.95) WITHIN GROUP (ORDER BY lag) AS p95 FROM ("
            "SELECT extract(epoch FROM published_at - created_at) * 1000 AS lag FROM outbox "
            "WHERE id > $1 AND published_at IS NOT NULL) s", stage.outbox_from)
    finally:
        await connection.close()
    return (round(row["p50"] or 0, 1), round(row["p95"] or 0, 1))
