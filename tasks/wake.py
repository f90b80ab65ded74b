"""Dramatiq's Redis broker, woken by a signal instead of polled fast, and quick to recover a dead
worker's messages.

Dramatiq's Redis consumers poll: an idle consumer sleeps a growing backoff capped at the worker
timeout (WORKER_POLL_MS) between fetches. A short cap costs CPU on an idle stack (every consumer
and worker thread of every process wakes ten times a second at 100 ms); a long one delays
pick-up. Here the cap is long (2 s by default) and every enqueue also publishes the queue's name
on WAKE_CHANNEL (at most once per WAKE_EVERY_SECONDS a queue and process: a busy
queue needs no nudge, its consumers fetch again within milliseconds of their last hit). One
listener thread per worker process turns those into events the idle consumers wait on, so a new
message is fetched at once. The outbox relay (schedules/relay.py), which enqueues with a plain
broker, publishes there too, once per batch and queue. A lost nudge (Redis restarted) only delays
until the next poll.

Dead workers: a worker process writes a heartbeat on every command it sends Redis (each poll
and ack); Dramatiq's maintenance gives a worker's unacknowledged messages back to their queue
once its heartbeat is older than the heartbeat timeout, but runs it on a random draw (one
command in a thousand) and only on the queue of that command, which on a quiet system can take
minutes. Here every process also runs it on each queue it consumes at least every
MAINTENANCE_SECONDS, so a SIGKILLed worker's prefetched messages are back in
their queue within the heartbeat timeout (10 s, or three polls when WORKER_POLL_MS is above 3.3 s)
plus MAINTENANCE_SECONDS (docs/messages.md). After a Redis connection error a consumer gives its
process a new identity, so what Dramatiq dropped from memory then comes back the same way.
"""

from __future__ import annotations

import logging
import threading
import time
from uuid import uuid4

import redis
from dramatiq.brokers.redis import MAINTENANCE_COMMAND_BLACKLIST, RedisBroker, _RedisConsumer
from dramatiq.common import compute_backoff, current_millis
from dramatiq.errors import ConnectionClosed
from dramatiq.broker import MessageProxy
from dramatiq.message import Message

from kit.actors import WORKER_WAKE_CHANNEL

log = logging.getLogger("herald.worker")

# Without a heartbeat for this long a worker counts as dead: at least three of its longest idle
# polls (a poll is a heartbeat); a worker busy on every thread still acks, which beats too.
HEARTBEAT_TIMEOUT_MS = 10_000


def heartbeat_timeout_ms(poll_ms: int) -> int:
    return max(HEARTBEAT_TIMEOUT_MS, 3 * poll_ms)


MAINTENANCE_SECONDS = 5.0
WAKE_EVERY_SECONDS = 0.02
WAKE_CHANNEL = WORKER_WAKE_CHANNEL


class WakeableRedisBroker(RedisBroker):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("heartbeat_timeout", HEARTBEAT_TIMEOUT_MS)
        super().__init__(*args, **kwargs)
        self._events: dict[str, threading.Event] = {}
        self._events_lock = threading.Lock()
        self._last_nudge: dict[str, float] = {}
        self._next_maintenance: dict[str, float] = {}
        self._listener: threading.Thread | None = None

    @property
    def consumer_class(self):
        return _WakeableConsumer

    def event_for(self, queue_name: str) -> threading.Event:
        with self._events_lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="dramatiq-wake", daemon=True)
                self._listener.start()
            return self._events.setdefault(queue_name, threading.Event())

    def do_enqueue(self, queue_name, *args):
        result = self._dispatch("enqueue")(queue_name, *args)
        now = time.monotonic()
        if now - self._last_nudge.get(queue_name, 0.0) >= WAKE_EVERY_SECONDS:
            self._last_nudge[queue_name] = now
            try:
                self.client.publish(WAKE_CHANNEL, queue_name)
            except redis.RedisError as error:  # the message is enqueued; the poll will find it
                log.debug("wake nudge failed: %r", error)
        return result

    def _maintenance_due(self, command: str, queue_name: str) -> int:
        """Dramatiq's maintenance works on the queue of the command that runs it: due per queue."""
        if command not in MAINTENANCE_COMMAND_BLACKLIST:
            now = time.monotonic()
            if now >= self._next_maintenance.get(queue_name, 0.0):
                self._next_maintenance[queue_name] = now + MAINTENANCE_SECONDS
                return 1
        return self._should_do_maintenance(command)

    def _dispatch(self, command):
        # RedisBroker._dispatch (dramatiq 2.x) with the maintenance flag decided per queue.
        dispatch = self.scripts["dispatch"]
        keys = [self.namespace]

        def do_dispatch(queue_name, *args):
            return dispatch(args=[command, current_millis(), queue_name, self.broker_id, self.heartbeat_timeout,
                                  self.dead_message_ttl, self._maintenance_due(command, queue_name),
                                  self._max_unpack_size(), *args], keys=keys)

        return do_dispatch

    def _listen(self) -> None:
        """Set the event of every queue named on the wake channel; reconnect when Redis goes away."""
        while True:
            pubsub = None
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(WAKE_CHANNEL)
                for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    name = item["data"].decode() if isinstance(item["data"], bytes) else str(item["data"])
                    event = self._events.get(name)
                    if event is not None:
                        event.set()
            except Exception as error:  # noqa: BLE001 - Redis away: the consumers still poll
                log.debug("wake listener: %r; reconnecting", error)
                time.sleep(1.0)
            finally:
                if pubsub is not None:
                    try:
                        pubsub.close()
                    except Exception:  # noqa: BLE001
                        pass


class _WakeableConsumer(_RedisConsumer):
    """Dramatiq's consumer with its idle sleep replaced by a wait on the queue's wake event
    (the rest is ``_RedisConsumer.__next__`` as in dramatiq 2.x)."""

    def __init__(self, broker, queue_name, prefetch, timeout):
        super().__init__(broker, queue_name, prefetch, timeout)
        self.wake = broker.event_for(queue_name)

    def __next__(self):
        try:
            while True:
                try:
                    data = self.message_cache.pop(0)
                    if data is None:
                        continue
                    self.misses = 0
                    message = Message.decode(data)
                    self.queued_message_ids.add(message.message_id)
                    return MessageProxy(message)
                except IndexError:
                    messages = []
                    # Cleared before fetching: a nudge for a message enqueued from here on wakes the wait.
                    self.wake.clear()
                    if self.outstanding_message_count < self.prefetch:
                        self.message_cache = messages = self.broker.do_fetch(
                            self.queue_name, self.prefetch - self.outstanding_message_count)
                    if not messages:
                        self.misses, backoff_ms = compute_backoff(self.misses, max_backoff=self.timeout)
                        if self.wake.wait(backoff_ms / 1000):
                            self.misses = 0
                        return None
        except redis.ConnectionError as e:
            # Dramatiq drops this consumer's prefetched and delayed messages from memory on a
            # connection error but leaves them in this worker's ack sets, where nothing returns them
            # while the worker lives (only a dead worker's are requeued). A new identity makes the
            # old one a dead worker: maintenance requeues its messages once its heartbeat is old
            # (one still running is then a duplicate job, which the delivery's claim makes harmless).
            self.broker.broker_id = str(uuid4())
            raise ConnectionClosed(e) from None
