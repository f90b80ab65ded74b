"""End to end through the HTTP providers: SMS through Twilio, push through FCM and WhatsApp through
the Cloud API, each against a local server that speaks its protocol (bench/http_receiver.py, the
provider tests' server in a process of its own), on the stack of bench/chaos.py (roles as separate
processes, worker processes for the machine's cores x 8 threads, its own Redis and database, the
platform's providers of those channels pointed at the local servers, a live key).

1. no-op baseline: a no-op Dramatiq actor with the same worker processes and threads
   (bench/smtp_e2e.py ``noop_rate``);
2. for each channel, the floor (bench/providers_floor.py, issue 46): --burst calls of that channel
   made to the same servers by a minimal program with the same processes and calls in flight, no
   database; then a burst of --burst messages accepted as fast as the API takes them (requests of
   100 recipients, or 500 device tokens), timed from the first accept to the last provider call
   arriving: delivered per second, that divided by the floor's rate (target 0.5) and by the no-op
   rate, and the CPU time each
   role spent per delivered message (worker, platform, scheduler, PostgreSQL's backends, this
   process, the provider servers' process).

`python -m bench.providers_e2e [--burst 2000]`; `make bench` runs it after the SMTP step.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time

import httpx
import psutil

from bench.chaos import LiveStack, say
from bench.http_receiver import HttpReceiver, provider_env
from bench.providers_floor import http_floor
from bench.smtp_e2e import _add_new_processes, _cpu_per_message, _cpu_seconds, _role_processes, noop_rate

CHANNELS = ("sms", "push", "whatsapp")
PER_REQUEST = {"sms": 100, "push": 500, "whatsapp": 100}


def _request(channel: str, first: int, count: int) -> tuple[str, dict]:
    if channel == "push":
        return "/v1/push/send", {"Notification": {"Title": "Bench", "Body": "hello"},
                                 "DeviceTokens": [f"bench-device-{first + index}" for index in range(count)]}
    # US numbers of the 415 area with a valid exchange (2xx), one per message.
    return f"/v1/{channel}/send", {"To": [f"+1415{2_000_000 + first + index}" for index in range(count)],
                                   "Body": "bench"}


async def burst(stack: LiveStack, receiver: HttpReceiver, channel: str, count: int) -> dict:
    before = receiver.count(channel)
    headers = {"Authorization": f"Bearer {stack.key}"}
    roles = {**_role_processes(stack), "provider servers": [psutil.Process(receiver.pid)]}
    cpu_before = _cpu_seconds(roles)
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=stack.url, timeout=60) as client:
        for first in range(0, count, PER_REQUEST[channel]):
            path, body = _request(channel, first, min(PER_REQUEST[channel], count - first))
            response = await client.post(path, json=body, headers=headers)
            if response.status_code != 202:
                raise RuntimeError(f"{path} answered {response.status_code}: {response.text[:300]}")
    accepted_in = time.monotonic() - started
    deadline = time.monotonic() + 600
    while receiver.count(channel) - before < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    delivered = receiver.count(channel) - before
    elapsed = receiver.last(channel) - started
    _add_new_processes(stack, roles)
    return {"messages": count, "delivered": delivered, "accept_seconds": round(accepted_in, 2),
            "seconds": round(elapsed, 2), "delivered_per_second": round(delivered / elapsed, 1),
            "cpu_ms_per_message": _cpu_per_message(roles, cpu_before, _cpu_seconds(roles), delivered)}


async def run(processes: int, threads: int, burst_count: int) -> dict:
    receiver = HttpReceiver()
    receiver.start()
    try:
        async with LiveStack(processes, threads, scopes="sms:send,push:send,whatsapp:send",
                             env=provider_env(receiver.url)) as stack:
            say(f"providers e2e: {processes} worker processes x {threads} threads; no-op baseline")
            baseline = await asyncio.to_thread(noop_rate, stack.redis.url, processes, threads)
            channels = {}
            for channel in CHANNELS:
                say(f"providers e2e: {channel}, floor of {burst_count}")
                floor = await asyncio.to_thread(http_floor, receiver, channel, processes, threads, burst_count)
                say(f"providers e2e: {channel}, burst of {burst_count}")
                found = await burst(stack, receiver, channel, burst_count)
                found["floor"] = floor
                found["ratio_to_floor"] = round(found["delivered_per_second"] / floor["messages_per_second"], 3)
                found["ratio_to_noop"] = round(found["delivered_per_second"] / baseline["messages_per_second"], 3)
                channels[channel] = found
    finally:
        receiver.stop()
    return {"worker_processes": processes, "worker_threads": threads, "noop_baseline": baseline,
            "channels": channels, "target_ratio": 0.5, "load_average": [round(x, 1) for x in os.getloadavg()]}


def rows(results: dict) -> list[str]:
    """The bench table's rows for this step."""
    found = results.get("providers_e2e")
    if not found:
        return []
    noop = found["noop_baseline"]["messages_per_second"]
    names = {"sms": "SMS through Twilio", "push": "push through FCM", "whatsapp": "WhatsApp through the Cloud API"}
    out = []
    for channel, burst_found in found["channels"].items():
        cpu = ", ".join(f"{name} {value}" for name, value in burst_found["cpu_ms_per_message"].items())
        floor = burst_found.get("floor")
        if floor:
            out.append(f"| delivered {names[channel]} (local server), burst of {burst_found['messages']}, "
                       f"{found['worker_processes']} worker processes x {found['worker_threads']} threads | "
                       f"{burst_found['delivered_per_second']} messages/s | floor (`bench/providers_floor.py`: the "
                       f"same calls, processes and in-flight, no database): {floor['messages_per_second']} "
                       f"calls/s, CPU ms a call {floor['cpu_ms_per_message']} | **{burst_found['ratio_to_floor']}** "
                       f"(target 0.5) |")
        out.append(f"| delivered {names[channel]} (local server), burst of {burst_found['messages']}, "
                   f"{found['worker_processes']} worker processes x {found['worker_threads']} threads | "
                   f"{burst_found['delivered_per_second']} messages/s; CPU ms a message: {cpu} | no-op Dramatiq, "
                   f"same workers: {noop} messages/s | {burst_found['ratio_to_noop']} |")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.providers_e2e")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--burst", type=int, default=2000)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.processes, args.threads, args.burst)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
