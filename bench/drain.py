"""The SMTP end-to-end step's drain (bench/smtp_e2e.py, step 5; issue 46, item 4): a burst of
e-mails far larger than the throughput step's drains at the delivered rate that step measured, and
no process of Herald's keeps growing while it does.

The campaign's e-mails (bench/campaign.py, batches of 500 through /v1/emails/batch) are
all accepted, then awaited at the local SMTP receiver. Meanwhile a thread samples, every 0.25 s,
the RSS of each process of the stack's roles on its own (each role's top process and each of its
children by pid: the worker's Dramatiq processes are where memory would pile up), not the bench's
receiver nor PostgreSQL. Each process's RSS when the receiver has had the first ``settle`` e-mails
of the step (caches, pools and Python's arenas filled by then) is the reference; its peak from then
to the end, divided by it, is its growth: bound 1.2.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import psutil

from bench.campaign import accept_campaign
from bench.chaos import LiveStack, say

GROWTH_BOUND = 1.2
RATE_BOUND = 0.9  # the drain's rate against the burst step's ("drains at the measured delivered rate"), less noise
FIRST_RECIPIENT = 30_000_000  # after the burst's (10,000,000) and the latency step's (20,000,000)


class ProcessMemory:
    """Every 0.25 s, the RSS of each process of the stack's roles, keyed "role/pid"; from the first
    sample at which ``settled()`` holds: each one's RSS then and its peak from then on."""

    def __init__(self, stack: LiveStack, settled: Callable[[], bool]) -> None:
        self.stack, self.settled = stack, settled
        self.settled_at: float | None = None
        self.at_settle: dict[str, int] = {}
        self.peaks: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="drain-memory")
        self._thread.start()

    def _sample(self) -> dict[str, int]:
        found = {}
        for child in self.stack.supervisor.children:
            if child.process is None:
                continue
            try:
                top = psutil.Process(child.process.pid)
                processes = [top, *top.children(recursive=True)]
            except psutil.Error:
                continue
            for process in processes:
                try:
                    found[f"{child.name}/{process.pid}"] = process.memory_info().rss
                except psutil.Error:  # ended since it was listed
                    pass
        return found

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            # Asked before sampling: the sample that sets the reference is taken once settled.
            settled = self.settled_at is not None or self.settled()
            rss = self._sample()
            if not settled:
                continue
            if self.settled_at is None:
                self.settled_at, self.at_settle = time.monotonic(), dict(rss)
                say(f"smtp e2e: drain settled, RSS of {len(rss)} processes noted")
            for key, value in rss.items():
                self.peaks[key] = max(self.peaks.get(key, 0), value)

    def stop(self) -> dict:
        """Per process found at the reference: its RSS then, its peak and their ratio; apart, the
        processes that started after it (a restarted worker would be one), with their peak."""
        self._stop.set()
        self._thread.join()
        processes, started_later = {}, {}
        for key, peak in sorted(self.peaks.items()):
            if key not in self.at_settle:
                started_later[key] = round(peak / 2**20, 1)
                continue
            processes[key] = {"rss_mib_after_settle": round(self.at_settle[key] / 2**20, 1),
                              "peak_mib": round(peak / 2**20, 1), "growth": round(peak / self.at_settle[key], 3)}
        return {"processes": processes, "started_after_settle": started_later}


async def drain(stack: LiveStack, count: int, burst_rate: float, settle: int = 10_000) -> dict:
    """Accept ``count`` e-mails of the campaign, wait for all of them at the receiver; the delivered
    rate (first accept to last arrival, as the burst step times it) against the burst step's
    ``burst_rate``, and each process's RSS growth after the first ``settle`` delivered."""
    receiver = stack.receiver
    before = receiver.count()
    memory = ProcessMemory(stack, lambda: receiver.count() - before >= settle)
    started = time.monotonic()
    deadline = started + count / 50 + 120
    try:
        await accept_campaign(stack, FIRST_RECIPIENT, count)
        accepted_in = time.monotonic() - started
        say(f"smtp e2e: drain accepted {count} in {accepted_in:.0f} s, {receiver.count() - before} delivered")
        reported = time.monotonic()
        while receiver.count() - before < count and time.monotonic() < deadline:
            await asyncio.sleep(0.25)
            if time.monotonic() - reported >= 60:
                reported = time.monotonic()
                say(f"smtp e2e: drain, {receiver.count() - before}/{count} delivered")
    finally:
        found = memory.stop()
    arrivals, _ = receiver.snapshot()
    elapsed = max(t for times in arrivals.values() for t in times) - started
    handed_back = await _handed_back(stack)
    delivered = len(arrivals) - before
    rate = delivered / elapsed
    processes = found["processes"]
    worst = max(processes, key=lambda key: processes[key]["growth"], default=None)
    return {"messages": count, "delivered": delivered, "accept_seconds": round(accepted_in, 2),
            "seconds": round(elapsed, 2), "delivered_per_second": round(rate, 1),
            "burst_delivered_per_second": burst_rate, "ratio_to_burst": round(rate / burst_rate, 3),
            "rate_bound": RATE_BOUND, "rate_within_bound": rate / burst_rate >= RATE_BOUND,
            "settle": settle, "settled": memory.settled_at is not None,
            "settled_after_seconds": round(memory.settled_at - started, 1) if memory.settled_at else None,
            "rss": processes, "started_after_settle": found["started_after_settle"],
            "worst_process": worst, "worst_growth": processes[worst]["growth"] if worst else None,
            "growth_bound": GROWTH_BOUND, "handed_back": handed_back,
            "within_bound": bool(worst) and processes[worst]["growth"] <= GROWTH_BOUND}


async def _handed_back(stack: LiveStack) -> int:
    """How many times the reconciler handed a message of the stack back to the workers (its
    ``requeued`` events): behind a long queue, none is stuck, so none should be."""
    connection = await stack.connect()
    try:
        return int(await connection.fetchval("SELECT count(*) FROM message_events WHERE type = 'requeued'"))
    finally:
        await connection.close()
