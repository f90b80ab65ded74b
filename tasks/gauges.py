"""The gauges of the worker's exporter (WORKER_METRICS_PORT; docs/observability.md), read every
INTERVAL seconds by a thread of one worker process per machine:

- ``herald_queue_depth{queue,state}``: each broker queue's messages ready, delayed and dead-lettered;
- ``herald_outbox_backlog{system}``, ``herald_outbox_relay_lag_seconds{system}``: each outbox's rows
  not relayed yet (counted up to BACKLOG_CAP) and the age of the oldest (models/outbox.py: backlog);
- ``herald_stream_length{stream}``, ``herald_stream_pending{stream,group}``: the Redis streams'
  entries (the consumer trims what its group acknowledged, so the length is the backlog) and those a
  consumer read and has not acknowledged;
- ``herald_database_connections{system,state}``: the connections to each system's database by state
  (``pg_stat_activity``): every process's pools together, against the server's max_connections.

Why the worker: it already holds a pool to every system that has an outbox (EventLoopResources) and
reaches the broker's Redis; an HTTP process holds only its own system's database, and the scheduler
and the stream consumer have no exporter. Why one process per machine: every process of a machine
writes the same exporter's folder, so one reading a round is enough; a short lease in Redis, named
after the machine and the folder, picks it. The gauges keep the most recent reading, whichever
process made it (``multiprocess_mode="mostrecent"``), so a process that stopped leaves no stale value
above a newer one.

Why not the asyncpg pool's own size and use: Tortoise keeps the pool in a private attribute
(``_pool``); pg_stat_activity says the same from the server's side, for every process at once.

Each reading is one cheap statement or a few Redis commands under READ_TIMEOUT; one that fails is
logged at DEBUG, counted in ``herald_gauge_reading_failures_total{reading}`` and skipped, and the
others go on: a reading never takes a worker or the exporter down.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import socket
import threading
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable

import dramatiq
import redis

from kit.settings import Settings

log = logging.getLogger("herald.worker")

INTERVAL = 5.0
READ_TIMEOUT = 2.0
BACKLOG_CAP = 100_000
# pg_stat_activity's states: each is written every round (0 when none), so a state that empties shows 0.
STATES = ("active", "idle", "idle in transaction", "idle in transaction (aborted)")


@functools.cache
def gauges() -> SimpleNamespace:
    """The gauges, made on first use: prometheus_client must be imported after the worker's
    environment names the metrics folder (tasks/broker.py)."""
    from prometheus_client import Counter, Gauge

    def gauge(name: str, text: str, labels: list[str]) -> Gauge:
        return Gauge(name, text, labels, multiprocess_mode="mostrecent")

    return SimpleNamespace(
        queue_depth=gauge("herald_queue_depth", "Messages in a broker queue by state", ["queue", "state"]),
        outbox_backlog=gauge("herald_outbox_backlog", "Outbox rows not relayed yet (counted up to 100000)",
                             ["system"]),
        relay_lag=gauge("herald_outbox_relay_lag_seconds", "Age of the oldest outbox row not relayed yet",
                        ["system"]),
        stream_length=gauge("herald_stream_length", "Entries in a Redis stream", ["stream"]),
        stream_pending=gauge("herald_stream_pending", "Entries read by a consumer group and not acknowledged",
                             ["stream", "group"]),
        connections=gauge("herald_database_connections", "Connections to a system's database by state",
                          ["system", "state"]),
        failures=Counter("herald_gauge_reading_failures_total", "Gauge readings that failed and were skipped",
                         ["reading"]),
    )


@dataclass(frozen=True)
class Stream:
    client: redis.Redis
    name: str
    group: str | None  # None: a stream nobody consumes (the dead-letter streams)


def streams(settings: Settings, client_for: Callable[[str], redis.Redis]) -> list[Stream]:
    """Every Redis stream of the house: the request log's on REDIS_URL, the runtime's on
    STREAMS_REDIS_URL (tasks/streams/consume.py)."""
    from models.platform.request_log import stream as request_log
    from models.runtime import stream as runtime

    main, collected = client_for(settings.require_redis_url()), client_for(settings.require_streams_redis_url())
    return [Stream(main, request_log.STREAM, request_log.GROUP), Stream(main, request_log.DEAD_STREAM, None),
            Stream(collected, runtime.EVENTS_STREAM, runtime.GROUP),
            Stream(collected, runtime.REPLAY_STREAM, runtime.GROUP), Stream(collected, runtime.DEAD_STREAM, None)]


def read_queues(client: redis.Redis, namespace: str, queues: list[str]) -> None:
    pipe = client.pipeline(transaction=False)
    for queue in queues:
        base = f"{namespace}:{queue}"
        pipe.llen(base)
        pipe.hlen(f"{base}.DQ.msgs")
        pipe.zcard(f"{base}.XQ")
    counts = pipe.execute()
    for index, queue in enumerate(queues):
        for state, count in zip(("ready", "delayed", "dead"), counts[3 * index:3 * index + 3]):
            gauges().queue_depth.labels(queue, state).set(count)


def read_stream(stream: Stream) -> None:
    gauges().stream_length.labels(stream.name).set(stream.client.xlen(stream.name))
    if stream.group is None:
        return
    try:
        pending = stream.client.xpending(stream.name, stream.group)["pending"]
    except redis.ResponseError as error:
        if "NOGROUP" not in str(error):
            raise
        pending = 0  # no consumer has made its group yet: nothing was read
    gauges().stream_pending.labels(stream.name, stream.group).set(pending)


async def read_database(system: str) -> None:
    """One system's outbox and connections, two statements under READ_TIMEOUT."""
    from tortoise import connections

    from models.outbox import backlog

    conn = connections.get(system)
    async with asyncio.timeout(READ_TIMEOUT):
        rows, lag = await backlog(conn, BACKLOG_CAP)
        states = await conn.execute_query_dict(
            "SELECT state, count(*)::int AS n FROM pg_stat_activity "
            "WHERE datname = current_database() AND state IS NOT NULL GROUP BY state")
    gauges().outbox_backlog.labels(system).set(rows)
    gauges().relay_lag.labels(system).set(lag)
    found = {row["state"]: row["n"] for row in states}
    for state in {*STATES, *found}:
        gauges().connections.labels(system, state).set(found.get(state, 0))


Reading = tuple[str, Callable[[], None]]


def read_all(readings: list[Reading]) -> int:
    """Every reading, each on its own: one that fails is counted and skipped. The failures."""
    failed = 0
    for name, read in readings:
        try:
            read()
        except Exception as exc:  # noqa: BLE001 - a gauge must never take a worker down
            failed += 1
            gauges().failures.labels(name).inc()
            log.debug("gauge reading %s failed: %r", name, exc)
    return failed


class Gauges(dramatiq.Middleware):
    """Starts the reading thread in every worker process; each round, the one holding the machine's
    lease reads."""

    def __init__(self, settings: Settings, queues: list[str], systems: list[str]):
        self.settings = settings
        self.queues = queues
        self.systems = systems
        self._stop = threading.Event()
        self._clients: dict[str, redis.Redis] = {}

    def after_worker_boot(self, broker, worker):
        gauges()
        threading.Thread(target=self._run, args=(broker,), name="gauges", daemon=True).start()

    def before_worker_shutdown(self, broker, worker):
        self._stop.set()

    def _client(self, url: str) -> redis.Redis:
        if url not in self._clients:
            self._clients[url] = redis.Redis.from_url(url, socket_timeout=READ_TIMEOUT,
                                                      socket_connect_timeout=READ_TIMEOUT)
        return self._clients[url]

    def readings(self, broker) -> list[Reading]:
        from dramatiq.asyncio import get_event_loop_thread

        def database(system: str) -> Callable[[], None]:
            # On the worker's event loop, where its Tortoise pools live (tasks/middleware.py).
            return lambda: get_event_loop_thread().run_coroutine(read_database(system))

        main = self._client(self.settings.require_redis_url())
        found: list[Reading] = [("queues", functools.partial(read_queues, main, broker.namespace, self.queues))]
        found += [(f"stream {stream.name}", functools.partial(read_stream, stream))
                  for stream in streams(self.settings, self._client)]
        found += [(f"database {system}", database(system)) for system in self.systems]
        return found

    def _lease(self) -> bool:
        """This round is this process's to read: the first of the machine's processes to ask."""
        key = f"herald:gauges:{socket.gethostname()}:{os.environ.get('PROMETHEUS_MULTIPROC_DIR', '')}"
        client = self._client(self.settings.require_redis_url())
        return bool(client.set(key, os.getpid(), nx=True, px=int(INTERVAL * 900)))

    def _run(self, broker) -> None:
        readings: list[Reading] | None = None
        while not self._stop.is_set():
            try:
                if self._lease():
                    readings = readings or self.readings(broker)
                    read_all(readings)
            except Exception as exc:  # noqa: BLE001 - Redis away: try again next round
                log.debug("gauge round skipped: %r", exc)
            self._stop.wait(INTERVAL)
