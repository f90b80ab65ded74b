"""The floor of delivery through the HTTP providers on this machine (issue 46): a minimal program
with Herald's worker budget (the same number of processes, each with as many calls in flight as a
worker process has threads) that makes the calls Herald's providers make (bench/http_receiver.py's
servers: Twilio's form POST with basic auth, FCM's JSON POST with a bearer token fetched once per
process, WhatsApp Cloud's JSON POST with a bearer token), one recipient a call, each body its own
(a campaign), through one reused httpx client per process (the client Herald's providers use),
reading each answer's JSON as a provider must; no database, no queue.

Timed from the moment every process is ready to the last call arriving at the servers (their
clock): calls per second.

This file is the yardstick of `make bench`'s HTTP provider ratios: it is not edited to move them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time

import psutil

TWILIO_SID, TWILIO_TOKEN = "AC" + "b" * 32, "bench-auth-token-" + "x" * 15


def _call(channel: str, url: str, run: str, index: int) -> tuple[str, dict]:
    """(URL, httpx keyword arguments) of the campaign's ``index``th call of ``channel``."""
    if channel == "sms":
        return (f"{url}/2010-04-01/Accounts/{TWILIO_SID}/Messages.json",
                {"data": {"To": f"+1415{3_000_000 + index}", "Body": f"Floor {run}: your code is {index:07d}",
                          "From": "+15550001111"}, "auth": (TWILIO_SID, TWILIO_TOKEN)})
    if channel == "push":
        return (f"{url}/v1/projects/bench/messages:send",
                {"json": {"message": {"token": f"floor-{run}-{index}",
                                      "notification": {"title": "Floor", "body": f"your code is {index:07d}"}}}})
    return (f"{url}/v21.0/1055/messages",
            {"json": {"messaging_product": "whatsapp", "recipient_type": "individual", "to": f"1415{3_000_000 + index}",
                      "type": "text", "text": {"preview_url": False, "body": f"Floor {run}: your code is {index:07d}"}},
             "headers": {"Authorization": "Bearer EAAG-bench"}})


async def _process(url: str, channel: str, run: str, indices: range, concurrency: int, ready, start) -> None:
    import httpx

    async with httpx.AsyncClient(timeout=30) as client:
        headers = {}
        if channel == "push":
            answer = await client.post(f"{url}/token", data={"grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
                                                              "assertion": "floor"})
            headers = {"Authorization": f"Bearer {answer.json()['access_token']}"}
        ready.put(True)
        await asyncio.to_thread(start.wait)
        cpu = time.process_time()
        numbers = iter(indices)

        async def lane() -> None:
            for index in numbers:
                target, options = _call(channel, url, run, index)
                if headers:
                    options["headers"] = headers
                response = await client.post(target, **options)
                response.raise_for_status()
                response.json()

        await asyncio.gather(*(lane() for _ in range(concurrency)))
        ready.put(time.process_time() - cpu)


def _child(*args) -> None:
    asyncio.run(_process(*args))


def http_floor(receiver, channel: str, processes: int, concurrency: int, count: int) -> dict:
    """The floor's rate of ``channel`` against ``receiver`` (bench/http_receiver.py ``HttpReceiver``,
    started)."""
    context = multiprocessing.get_context("spawn")
    ready, start = context.Queue(), context.Event()
    run = f"{time.monotonic_ns() % 10_000_000:07d}"
    children = [context.Process(target=_child, daemon=True, args=(
        receiver.url, channel, run, range(number, count, processes), concurrency, ready, start))
        for number in range(processes)]
    before = receiver.count(channel)
    for child in children:
        child.start()
    for _child_ready in children:
        ready.get(timeout=120)
    server = psutil.Process(receiver.pid)
    server_cpu = sum(server.cpu_times()[:2])
    started = time.monotonic()
    start.set()
    floor_cpu = sum(ready.get(timeout=600) for _child_done in children)
    for child in children:
        child.join(60)
    deadline = time.monotonic() + 30
    while receiver.count(channel) - before < count and time.monotonic() < deadline:
        time.sleep(0.05)
    delivered = receiver.count(channel) - before
    elapsed = receiver.last(channel) - started
    server_cpu = sum(server.cpu_times()[:2]) - server_cpu
    return {"channel": channel, "messages": count, "delivered": delivered, "processes": processes,
            "in_flight_per_process": concurrency, "seconds": round(elapsed, 2),
            "messages_per_second": round(delivered / elapsed, 1),
            "cpu_ms_per_message": {"floor": round(floor_cpu * 1000 / max(delivered, 1), 2),
                                   "provider servers": round(server_cpu * 1000 / max(delivered, 1), 2)}}


def main() -> None:
    """``python -m bench.providers_floor [--processes N --concurrency 8 --messages 2000]``: the floor
    of each channel alone, against provider servers of its own."""
    import argparse
    import json
    import os

    from bench.http_receiver import HttpReceiver

    parser = argparse.ArgumentParser(prog="python -m bench.providers_floor")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args()
    receiver = HttpReceiver()
    receiver.start()
    try:
        for channel in ("sms", "push", "whatsapp"):
            print(json.dumps(http_floor(receiver, channel, args.processes, args.concurrency, args.messages)))
    finally:
        receiver.stop()


if __name__ == "__main__":
    main()
