"""A small HTTP/1.1 load generator on raw asyncio sockets (keep-alive, no parsing beyond what is
needed), so the generator costs little next to the server. Closed loop at a concurrency, or open
loop at an offered rate. Its own CPU time is measured and reported."""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Union

# A request's bytes, or a function making each request anew (a fresh Idempotency-Key per send).
Request = Union[bytes, Callable[[], bytes]]


def build_request(method: str, path: str, body: bytes | None, headers: dict[str, str], host: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body is not None:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b"")


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    body = await reader.readexactly(length) if length else b""
    return status, body


@dataclass
class Result:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    elapsed: float = 0.0
    cpu_seconds: float = 0.0
    bodies: list[tuple[float, bytes]] = field(default_factory=list)
    sends: list[tuple[float, int, bytes]] = field(default_factory=list)  # open loop: (sent, status, body)

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def requests(self) -> int:
        return len(self.latencies)

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]

    def summary(self, expected: int) -> dict:
        return {
            "requests": self.requests,
            "rps": round(self.requests / self.elapsed, 1) if self.elapsed else 0,
            "p50_ms": round(self.percentile(50) * 1000, 2),
            "p99_ms": round(self.percentile(99) * 1000, 2),
            "errors": self.errors,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "generator_cpu_share": round(self.cpu_seconds / self.elapsed, 3) if self.elapsed else 0,
            "expected_status": expected,
        }


def merge(results: list[Result]) -> Result:
    """Several runs of the same load as one (their times add up)."""
    merged = Result()
    for result in results:
        merged.latencies += result.latencies
        merged.errors += result.errors
        merged.elapsed += result.elapsed
        merged.cpu_seconds += result.cpu_seconds
        for status, count in result.statuses.items():
            merged.statuses[status] = merged.statuses.get(status, 0) + count
    return merged


async def closed_loop(host: str, port: int, request: Request, concurrency: int, seconds: float, expected: int,
                      warmup: float = 0.0) -> Result:
    """`concurrency` connections, each sending the next request as soon as the last is answered."""
    result = Result()
    make = request if callable(request) else (lambda: request)
    if warmup:
        await closed_loop(host, port, request, concurrency, warmup, expected)
    cpu0, start = time.process_time(), time.perf_counter()
    stop_at = start + seconds

    async def connection() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            while time.perf_counter() < stop_at:
                payload = make()
                sent = time.perf_counter()
                writer.write(payload)
                status, _ = await read_response(reader)
                result.latencies.append(time.perf_counter() - sent)
                result.count(status)
                if status != expected:
                    result.errors += 1
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(concurrency)))
    result.elapsed = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - cpu0
    return result


async def open_loop(host: str, port: int, request: Request, rate: float, seconds: float, expected: int,
                    connections: int = 32) -> Result:
    """Requests started at a steady `rate` per second whatever the answers do; keeps each answer's
    body with the wall-clock time it arrived (for end-to-end latency), and with the monotonic time
    its request was sent (``sends``: the system-wide clock another process can stamp arrivals with)."""
    result = Result()
    make = request if callable(request) else (lambda: request)
    pool: asyncio.Queue = asyncio.Queue()
    for _ in range(connections):
        pool.put_nowait(await asyncio.open_connection(host, port))
    cpu0, start = time.process_time(), time.perf_counter()
    total = int(rate * seconds)
    tasks = []

    async def one() -> None:
        payload = make()
        reader, writer = await pool.get()
        try:
            sent, sent_at = time.perf_counter(), time.monotonic()
            writer.write(payload)
            status, body = await read_response(reader)
            result.latencies.append(time.perf_counter() - sent)
            result.count(status)
            result.bodies.append((time.time(), body))
            result.sends.append((sent_at, status, body))
            if status != expected:
                result.errors += 1
        finally:
            pool.put_nowait((reader, writer))

    for index in range(total):
        delay = start + index / rate - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one()))
    await asyncio.gather(*tasks)
    result.elapsed = time.perf_counter() - start
    result.cpu_seconds = time.process_time() - cpu0
    while not pool.empty():
        _, writer = pool.get_nowait()
        writer.close()
    return result


def message_ids(result: Result) -> list[tuple[float, str]]:
    out = []
    for at, body in result.bodies:
        try:
            out.append((at, json.loads(body)["MessageId"]))
        except (ValueError, KeyError):
            pass
    return out


def cpu_count() -> int:
    return os.cpu_count() or 1
