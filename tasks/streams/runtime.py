"""The runtime's stream kind, which ``herald consume`` runs (tasks/streams/consume.py: the process;
tasks/streams/loop.py: the loop every kind shares).

A long-running process of the worker role (``herald up`` starts it next to the Dramatiq workers; run
as many as you like). It reads the streams on ``STREAMS_REDIS_URL`` (default ``REDIS_URL``) and
flushes click counts from ``REDIS_URL``, where the published pages count them. It runs
``--concurrency`` loops (default 2), each one consumer of the group: while one waits for PostgreSQL
to write its batch, the other reads and classes the next (one loop spent about 40% of its time
waiting; two drain 7,200 to 9,400 events a second here, one about 6,200). Each reads the collection
streams (models/runtime/stream.py) in batches through the consumer group, checks each entry's
credential against the pixels table (rotated, disabled or unknown: kept only as filtered traffic,
reason ``credential``), classes traffic (bots by user agent, reason kept), and writes events,
rollups and heat cells (models/runtime/analytics.py) or replay batches (models/runtime/replay.py)
with multi-row inserts in one transaction. Entries are acknowledged only after the commit, and the
acknowledgement gives their bytes back to the stream's byte bound (past it the edge answers 429;
tasks/streams/group.py ``acknowledge``); entries a dead consumer left pending are claimed again with
XAUTOCLAIM once idle for ``--claim-idle-ms``; the writes are unique per stream entry, so an entry
written and then replayed counts once.

After each commit the account's live events go to its history stream and pub/sub channel (the
SSE of app/runtime/analytics/live.py). Every few seconds the streams are trimmed to what the group
has acknowledged; every hour, raw events and replays past retention are deleted and consumers idle
for an hour with nothing pending are removed from the group.

A batch that fails to write is retried entry by entry: an entry that fails alone with a data error
is poison (kept in the dead stream, acknowledged, logged); a connection error means the database is
away, and nothing more is acknowledged (the rest is claimed again later).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import redis.asyncio as aioredis
from tortoise.transactions import in_transaction

from kit.settings import get_settings
from kit.systems import RUNTIME
from models.runtime import analytics, replay, traffic
from models.runtime.pixel import Pixel
from models.runtime.stream import (DEAD_STREAM, ENTRY_OVERHEAD, EVENTS_STREAM, FIELD, GROUP, REPLAY_STREAM, decode,
                                   stream_bytes)
from tasks.streams import clicks as runtime_clicks
from tasks.streams.live import LiveFanOut
from tasks.streams.loop import DatabaseAway, StreamConsumer, field_of, is_outage, text

log = logging.getLogger("herald.runtime.consumer")

STREAMS = (EVENTS_STREAM, REPLAY_STREAM)
RETENTION_SECONDS = 3600.0
REFUSED = "refused"
LIVE_TYPES = ("pageview", "click", "custom")
# Traffic from an ASN of the operator's datacenter list (reason ``asn:<number>``); refreshed every 5 min.
DATACENTER = "hosting"
ASN_REFRESH_SECONDS = 300.0
ASN_RETRY_SECONDS = 15.0
CONCURRENCY = 2  # consumer loops a process runs


def _moment(epoch_ms: Any, fallback: datetime) -> datetime:
    if isinstance(epoch_ms, int) and not isinstance(epoch_ms, bool):
        moment = datetime.fromtimestamp(epoch_ms / 1000, timezone.utc)
        if abs(moment - fallback) < timedelta(days=1):
            return moment
    return fallback


class RuntimeConsumer(StreamConsumer):
    kind = "runtime"
    streams = STREAMS
    group = GROUP
    dead_stream = DEAD_STREAM
    field = FIELD

    def __init__(self, redis: aioredis.Redis, name: str | None = None, *, batch: int = 500, block_ms: int = 2000,
                 claim_idle_ms: int = 60_000, clicks_redis: aioredis.Redis | None = None):
        super().__init__(redis, name, batch=batch, block_ms=block_ms, claim_idle_ms=claim_idle_ms)
        self.clicks_redis = clicks_redis or redis  # where the edge counts clicks (REDIS_URL)
        self.live = LiveFanOut(redis)
        self._asns_at = self._retention_at = self._flush_at = 0.0

    def counter(self, stream: str) -> str:
        return stream_bytes(stream)

    async def prepare(self, now: float) -> None:
        if now >= self._asns_at:  # before reading: entries are classed with the current list
            self._asns_at = time.monotonic() + await self.refresh_asns()

    async def upkeep(self, now: float) -> None:
        if now >= self._retention_at:
            self._retention_at = now + RETENTION_SECONDS
            await self.retention()
        if now >= self._flush_at:
            self._flush_at = now + runtime_clicks.FLUSH_SECONDS
            await self.flush_clicks()

    datacenter_asns: frozenset[int] = frozenset()

    async def refresh_asns(self) -> float:
        """The operator's datacenter ASNs (the platform's ``GET /internal/v1/datacenter-asns``), kept
        in memory; seconds until the next refresh. The platform away: the last list stays in use and
        the refresh is tried again sooner."""
        settings = get_settings()
        try:
            if getattr(self, "_platform_http", None) is None:
                self._platform_http = httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=3.0), trust_env=False)
            answer = await self._platform_http.get(
                f"{settings.internal_url_of('platform')}/internal/v1/datacenter-asns",
                headers={"Authorization": f"Bearer {settings.require_service_token()}"})
            answer.raise_for_status()
            numbers = answer.json().get("Asns")
            self.datacenter_asns = frozenset(int(item) for item in numbers if isinstance(item, int))
            return ASN_REFRESH_SECONDS
        except Exception as error:  # noqa: BLE001 - classing goes on with the last list
            log.warning("datacenter ASNs not refreshed (%s); keeping %d", type(error).__name__,
                        len(self.datacenter_asns))
            return ASN_RETRY_SECONDS

    async def flush_clicks(self) -> None:
        """Click and A/B counts summed to the pages system (tasks/streams/clicks.py); never stops the loop."""
        if getattr(self, "_pages_http", None) is None:
            self._pages_http = httpx.AsyncClient(timeout=runtime_clicks.TIMEOUT, trust_env=False)
        try:
            await runtime_clicks.flush(self.clicks_redis, runtime_clicks.pages_poster(self._pages_http))
        except Exception:  # noqa: BLE001 - the counts stay in Redis for the next flush
            log.exception("click flush failed; counts kept for the next one")

    async def handle(self, stream: str, entries: list) -> None:
        decoded: list[tuple[str, dict[str, Any] | None]] = []
        sizes: dict[str, int] = {}  # what the edge counted for each entry (models/runtime/stream.py)
        for entry_id, fields in entries:
            raw = field_of(fields, FIELD)
            sizes[text(entry_id)] = len(raw) + ENTRY_OVERHEAD if isinstance(raw, (bytes, str)) else 0
            try:
                decoded.append((text(entry_id), decode(raw)))
            except (TypeError, ValueError):
                decoded.append((text(entry_id), None))
        poison = [entry_id for entry_id, body in decoded if not isinstance(body, dict)]
        good = [(entry_id, body) for entry_id, body in decoded if isinstance(body, dict)]
        written: list[str] = []
        live: list[tuple[str, dict]] = []
        try:
            written, live = await self.write(stream, good)
        except Exception:  # noqa: BLE001 - which entry is at fault is found below, one by one
            log.warning("consumer: a batch of %d entries failed; writing them one by one", len(good), exc_info=True)
            for entry in good:
                try:
                    done, shown = await self.write(stream, [entry])
                    written += done
                    live += shown
                except Exception as error:  # noqa: BLE001
                    if is_outage(error):
                        raise DatabaseAway() from error
                    poison.append(entry[0])
        if poison:
            await self.bury(stream, poison, entries)
        await self.acknowledge(stream, [(entry_id, sizes.get(entry_id, 0)) for entry_id in (*written, *poison)])
        if live:
            await self.publish_live(live)

    async def write(self, stream: str, entries: list[tuple[str, dict]]) -> tuple[list[str], list[tuple[str, dict]]]:
        if not entries:
            return [], []
        async with in_transaction(RUNTIME.name) as conn:
            ids = {str(body.get("p")) for _, body in entries}
            pixels = {row.public_id: row for row in await Pixel.filter(public_id__in=ids).using_db(conn)}
            if stream == REPLAY_STREAM:
                await replay.record_chunks(conn, [row for row in (self._chunk(entry_id, body, pixels)
                                                                  for entry_id, body in entries) if row])
                return [entry_id for entry_id, _ in entries], []
            rows: list[analytics.EventRow] = []
            for entry_id, body in entries:
                rows += self._events(entry_id, body, pixels)
            await analytics.record_events(conn, rows)
        live = [(row.tenant, {"Type": row.type, "Page": row.page, "Session": row.session, "Source": row.source,
                              "Device": row.device, "Country": row.country or None,
                              "At": row.received_at.isoformat().replace("+00:00", "Z")})
                for row in rows if row.traffic == analytics.HUMAN and row.type in LIVE_TYPES]
        return [entry_id for entry_id, _ in entries], live

    @staticmethod
    def _admitted(body: dict, pixels: dict[str, Pixel], *, replay_needed: bool = False) -> Pixel | None:
        pixel = pixels.get(str(body.get("p")))
        if pixel is None or not pixel.enabled or pixel.tenant != body.get("t") or pixel.key_version != body.get("k"):
            return None
        if replay_needed and not pixel.replay:
            return None
        return pixel

    def _chunk(self, entry_id: str, body: dict, pixels: dict[str, Pixel]) -> replay.ChunkRow | None:
        if self._admitted(body, pixels, replay_needed=True) is None or not isinstance(body.get("ev"), list):
            return None
        received = _moment(body.get("at"), datetime.now(timezone.utc))
        return replay.ChunkRow(stream_id=entry_id, tenant=str(body["t"]), session=str(body.get("s", ""))[:40],
                               pixel_id=str(body["p"]), page=str(body.get("page", ""))[:512],
                               events=json.dumps(body["ev"], separators=(",", ":")), count=len(body["ev"]),
                               received_at=received)

    def _events(self, entry_id: str, body: dict, pixels: dict[str, Pixel]) -> list[analytics.EventRow]:
        pixel = self._admitted(body, pixels)
        received = _moment(body.get("at"), datetime.now(timezone.utc))
        user_agent = str(body.get("ua", ""))
        if pixel is None:
            klass, reason = REFUSED, "credential"
        else:
            bot = traffic.bot_reason(user_agent)
            asn = body.get("asn") if isinstance(body.get("asn"), int) else 0
            if bot:
                klass, reason = analytics.BOT, bot
            elif asn and asn in self.datacenter_asns:
                klass, reason = DATACENTER, f"asn:{asn}"
            else:
                klass, reason = analytics.HUMAN, None
        site = pixel.site if pixel else ""
        rows = []
        for position, event in enumerate(body.get("ev") or []):
            if not isinstance(event, dict) or event.get("type") not in analytics.EVENT_TYPES:
                continue
            width = event.get("w") if isinstance(event.get("w"), int) else None
            rows.append(analytics.EventRow(
                stream_id=entry_id, position=position, tenant=str(body.get("t", ""))[:64],
                pixel_id=str(body.get("p", ""))[:40], session=str(body.get("s", ""))[:40], type=event["type"],
                page=str(event.get("page") or "/")[:512], path=str(event.get("path") or "/")[:512],
                variant=str(event.get("variant") or "")[:40], x=event.get("x"), y=event.get("y"),
                depth=event.get("depth"), name=str(event.get("name") or "")[:100], props=event.get("props") or {},
                source=traffic.source(event.get("ref"), site)[:253] if event["type"] == "pageview" else "",
                device=traffic.device(user_agent, width), browser=traffic.browser(user_agent),
                country=str(body.get("cc") or "")[:2], traffic=klass, reason=reason,
                new_session=bool(event.get("new")), occurred_at=_moment(event.get("ts"), received),
                received_at=received))
        return rows

    async def publish_live(self, live: list[tuple[str, dict]]) -> None:
        try:
            await self.live.publish(live)
        except (aioredis.RedisError, OSError) as error:  # the events are written; only the live view misses them
            log.warning("consumer: live fan-out failed (%s)", type(error).__name__)

    async def retention(self) -> None:
        try:
            await self.forget_idle_consumers()
        except aioredis.RedisError as error:  # tried again next hour
            log.warning("idle consumers not forgotten (%s)", type(error).__name__)
        now = datetime.now(timezone.utc)
        try:
            async with in_transaction(RUNTIME.name) as conn:
                events = await analytics.delete_events_older_than(
                    conn, now - timedelta(days=analytics.EVENT_RETENTION_DAYS))
            async with in_transaction(RUNTIME.name) as conn:
                replays = await replay.delete_older_than(conn, now - timedelta(days=replay.REPLAY_RETENTION_DAYS))
            if events or replays:
                log.info("retention: %d events and %d replay batches deleted", events, replays)
        except Exception:  # noqa: BLE001 - retried next hour; never stops the consumer
            log.exception("retention failed")
