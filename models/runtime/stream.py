"""Names and bounds shared by the collection edge (app/runtime/collect) and the stream consumer
(tasks/streams/runtime.py): the Redis Streams, the consumer group, the live fan-out and the mirror
of pixel credentials, and the one JSON encoding of what goes through them. No I/O here.

One stream entry is one accepted POST: field ``e`` holds the normalized envelope as JSON,
``{"t": tenant, "p": pixel, "k": key version, "s": session, "ua": user agent, "cc": country,
"at": received epoch ms, "ev": [normalized events]}`` (replay entries carry ``"ev"`` as the recorder's
events and ``"page"``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson

# One hash tag for the edge's keys: the collection script touches them together (Redis Cluster slot).
EVENTS_STREAM = "{runtime-collect}:events"
REPLAY_STREAM = "{runtime-collect}:replay"
DEAD_STREAM = "{runtime-collect}:dead"  # entries the consumer could not write even alone (kept for a look)
GROUP = "runtime-consumers"
FIELD = "e"

# The edge refuses new entries (429, dropped and counted) while a stream holds this many entries
# not yet consumed; MAXLEN ~ is only a backstop far above it, so trimming never eats unread entries
# while the consumer keeps the stream trimmed to what it has acknowledged.
BACKLOG_CAP = {EVENTS_STREAM: 1_000_000, REPLAY_STREAM: 100_000}
MAXLEN = {EVENTS_STREAM: 1_200_000, REPLAY_STREAM: 120_000}

MIB = 1024 * 1024
# What bounds Redis's memory: the bytes of a stream's unconsumed entries. An entry counts as the
# length of its JSON plus ENTRY_OVERHEAD (Redis's own bookkeeping of an entry: its id, field name
# and listpack headers, rounded up). The publish script adds an accepted entry's bytes to the
# stream's counter (``stream_bytes``) in the same call as its XADD; the consumer subtracts them in
# the same call as its XACK (tasks/streams/group.py). Past the bound the edge answers 429. Together
# 144 MiB: under the embedded Redis's 256 MiB maxmemory (herald/embedded.py), 112 MiB stay for
# the job broker and everything else that shares the server.
ENTRY_OVERHEAD = 64
STREAM_MAX_BYTES = {EVENTS_STREAM: 48 * MIB, REPLAY_STREAM: 96 * MIB}
# Bytes a minute one pixel credential, and one client address, may publish (both streams together):
# the credential is public (it is in every page's source), so one visitor's address gets far less
# than the tenant's whole budget.
CREDENTIAL_BYTES_PER_MINUTE = 32 * MIB
ADDRESS_BYTES_PER_MINUTE = 4 * MIB
BUDGET_WINDOW_MS = 60_000


def stream_bytes(stream: str) -> str:
    """The counter of a stream's unconsumed bytes (same hash tag as the stream)."""
    return stream + ":bytes"

# pixel public id -> "<key version>:<r|->" or "off" (models/runtime/pixel.py version_mark)
PIXEL_VERSIONS = "{runtime-collect}:pixel-versions"

# Counters of what the edge dropped, by reason (a Redis hash; Prometheus counts the same in-process).
DROPPED = "{runtime-collect}:dropped"
# Batches the edge dropped, by pixel public id (a Redis hash): the pixel's ``Dropped`` (GET /v1/pixels/{id}).
DROPPED_BY_PIXEL = "{runtime-collect}:dropped-by-pixel"


def live_history(tenant: str) -> str:
    """A short capped stream per account: the ids SSE clients resume from (Last-Event-ID)."""
    return f"runtime:live:{tenant}"


def live_channel(tenant: str) -> str:
    """The pub/sub channel that fans an account's live events out to every open SSE stream."""
    return f"runtime:live-channel:{tenant}"


LIVE_HISTORY_MAXLEN = 1000


def open_streams(tenant: str) -> str:
    """A sorted set of an account's open SSE streams (member: stream id, score: lease expiry)."""
    return f"runtime:live-open:{tenant}"


def open_streams_of_person(user_id: str) -> str:
    """A person's open SSE streams, in every account (same shape as :func:`open_streams`)."""
    return f"runtime:live-open-person:{user_id}"


def open_streams_of_address(address: str) -> str:
    """The open SSE streams of one client address (hashed: no address is stored)."""
    return "runtime:live-open-address:" + hashlib.sha256(address.encode()).hexdigest()[:24]


def encode(value: dict[str, Any]) -> bytes:
    """A stream entry or live event as compact JSON (orjson: the edge and the consumer encode on
    every request and every event). A lone surrogate (valid JSON, not UTF-8) becomes "?", so nothing
    unwritable reaches a stream; NaN becomes null."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "replace")


def decode(raw: bytes | str | None) -> Any:
    """A stream entry back (orjson; the standard library reads what orjson refuses, such as the NaN
    that ``encode``'s fallback can write). TypeError or ValueError when it is not JSON."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)
