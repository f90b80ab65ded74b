"""The floor of delivery through SMTP + DKIM on this machine (issue 46): a minimal program with
Herald's worker budget (the same number of processes, each with as many deliveries in flight as a
worker process has threads) that signs each message with DKIM (an RSA key of the same size as a
sender domain's, 2048 bits; relaxed/relaxed like Herald; dkimpy with its RSA step in OpenSSL, as a
careful program would do it) and sends it over connections opened once and reused (aiosmtplib, the
client Herald uses) to the same local SMTP server, one recipient per envelope, no database, no queue.

The workload is a campaign: each recipient's body differs (a greeting and a code, as template
variables would give), and so does each envelope sender (a per-message return path, as VERP).
Timed from the moment every process is ready (its connections open) to the last message arriving
at the receiver (bench/receiver.py, its clock): messages per second.

This file is the yardstick of `make bench`'s delivery ratios: it is not edited to move them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time

import dkim
import psutil
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

SIGNED = [b"from", b"to", b"subject", b"date", b"message-id", b"mime-version", b"content-type"]


def _openssl_rsa(pem: bytes):
    """dkimpy's RSA step done by OpenSSL with the parsed key (dkimpy's own is pure Python)."""
    key = serialization.load_pem_private_key(pem, password=None)

    def sign(hash, private_key):  # noqa: A002 - dkimpy's parameter names
        return key.sign(hash.digest(), padding.PKCS1v15(), utils.Prehashed(hashes.SHA256()))

    dkim.RSASSA_PKCS1_v1_5_sign = sign
    dkim.parse_pem_private_key = lambda _pem, _parsed=dkim.parse_pem_private_key(pem): _parsed


def _message(run: str, domain: str, index: int) -> tuple[str, str, bytes]:
    """(envelope sender, recipient, unsigned bytes) of the campaign's ``index``th message."""
    recipient = f"floor{index}@example.com"
    raw = (f"From: Bench <bench@{domain}>\r\nTo: {recipient}\r\nSubject: Your code, floor{index}\r\n"
           f"Date: {time.strftime('%a, %d %b %Y %H:%M:%S +0000', time.gmtime())}\r\n"
           f"Message-ID: <floor-{run}-{index}@{domain}>\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n"
           f"Hello floor{index},\r\n\r\nyour code is {index * 7919 % 1000003:07d}.\r\n").encode()
    return f"bounces+floor-{run}-{index}@{domain}", recipient, raw


async def _process(port: int, pem: bytes, domain: str, run: str, indices: range, concurrency: int,
                   ready, start) -> None:
    import aiosmtplib

    _openssl_rsa(pem)
    clients = [aiosmtplib.SMTP(hostname="127.0.0.1", port=port, timeout=30) for _ in range(concurrency)]
    for client in clients:
        await client.connect()
    ready.put(True)
    await asyncio.to_thread(start.wait)
    cpu = time.process_time()
    numbers = iter(indices)

    async def lane(client) -> None:
        for index in numbers:
            sender, recipient, raw = _message(run, domain, index)
            signature = dkim.sign(raw, b"floor", domain.encode(), pem, canonicalize=(b"relaxed", b"relaxed"),
                                  include_headers=SIGNED)
            await client.sendmail(sender, [recipient], signature + raw)

    await asyncio.gather(*(lane(client) for client in clients))
    ready.put(time.process_time() - cpu)
    for client in clients:
        await client.quit()


def _child(*args) -> None:
    asyncio.run(_process(*args))


def smtp_floor(receiver, processes: int, concurrency: int, count: int, domain: str = "floor.example") -> dict:
    """The floor's rate against ``receiver`` (bench/receiver.py ``Receiver``, started)."""
    pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
    context = multiprocessing.get_context("spawn")
    ready, start = context.Queue(), context.Event()
    run = f"{time.monotonic_ns():x}"
    children = [context.Process(target=_child, daemon=True, args=(
        receiver.port, pem, domain, run, range(number, count, processes), concurrency, ready, start))
        for number in range(processes)]
    for child in children:
        child.start()
    for _child_ready in children:
        ready.get(timeout=120)
    receiver_process = psutil.Process(receiver.pid)
    receiver_cpu = sum(receiver_process.cpu_times()[:2])
    started = time.monotonic()
    start.set()
    floor_cpu = sum(ready.get(timeout=600) for _child_done in children)
    for child in children:
        child.join(60)
    deadline = time.monotonic() + 60
    while True:
        arrivals, _ = receiver.snapshot()
        mine = [times[0] for mid, times in arrivals.items() if mid.startswith(f"<floor-{run}-")]
        if len(mine) >= count or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    elapsed = max(mine) - started
    receiver_cpu = sum(receiver_process.cpu_times()[:2]) - receiver_cpu
    return {"messages": count, "delivered": len(mine), "processes": processes, "in_flight_per_process": concurrency,
            "seconds": round(elapsed, 2), "messages_per_second": round(len(mine) / elapsed, 1),
            "cpu_ms_per_message": {"floor": round(floor_cpu * 1000 / max(len(mine), 1), 2),
                                   "SMTP receiver": round(receiver_cpu * 1000 / max(len(mine), 1), 2)},
            "note": "DKIM RSA-2048 relaxed/relaxed, reused connections, one RCPT per envelope, no database"}


def main() -> None:
    """``python -m bench.delivery_floor [--processes N --concurrency 8 --messages 3000]``: the floor
    alone, against a local receiver of its own."""
    import argparse
    import json
    import os

    from bench.receiver import Receiver

    parser = argparse.ArgumentParser(prog="python -m bench.delivery_floor")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--messages", type=int, default=3000)
    args = parser.parse_args()
    receiver = Receiver()
    receiver.start()
    try:
        print(json.dumps(smtp_floor(receiver, args.processes, args.concurrency, args.messages), indent=2))
    finally:
        receiver.stop()


if __name__ == "__main__":
    main()
