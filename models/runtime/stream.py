"""Names and bounds shared by the collection edge (app/runtime/collect) and the stream consumer
(tasks/runtime_stream.py): the Redis Streams, the consumer group, the live fan-out and the mirror
of pixel credentials, and the one JSON encoding of what goes through them. No I/O here.

One stream entry is one accepted POST: field ``e`` holds the normalized envelope as JSON,
``{"t": tenant, "p": pixel, "k": key version, "s": session, "ua": user agent, "cc": country,
"at": received epoch ms, "ev": [normalized events]}`` (replay entries carry ``"ev"`` as the recorder's
events and ``"page"``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# One hash tag for the edge's keys: the collection script touches them together (Redis Cluster slot).
EVENTS_STREAM = "{runtime-collect}:events"
REPLAY_STREAM = "{runtime-collect}:replay"
DEAD_STREAM = "{runtime-collect}:dead"  # entries the consumer could not write even alone (kept for a look)
GROUP = "runtime-consumers"
FIELD = "e"

# The edge refuses new entries (204, dropped and counted) while a stream holds this many entries
# not yet consumed; MAXLEN ~ is only a backstop far above it, so trimming never eats unread entries
# while the consumer keeps the stream trimmed to what it has acknowledged.
BACKLOG_CAP = {EVENTS_STREAM: 1_000_000, REPLAY_STREAM: 100_000}
MAXLEN = {EVENTS_STREAM: 1_200_000, REPLAY_STREAM: 120_000}

# pixel public id -> "<key version>:<r|->" or "off" (models/runtime/pixel.py version_mark)
PIXEL_VERSIONS = "{runtime-collect}:pixel-versions"

# Counters of what the edge dropped, by reason (a Redis hash; Prometheus counts the same in-process).
DROPPED = "{runtime-collect}:dropped"


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
