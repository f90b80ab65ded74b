"""The Redis Stream between the HTTP process that captures requests (app/platform/request_log/) and
the stream consumer that builds and writes their rows (tasks/streams/request_log.py). No I/O here.

One entry is one captured request, field ``r``: the record sealed with AES-GCM under a key derived
from ``SECRET_KEY`` for this purpose alone (kit/sealing.py). The HTTP process does not redact (that
work is the consumer's), so what it hands over still holds message content, recipients and any
secret a client put in a body: sealed, none of it is readable in Redis, in its snapshots or by
anyone who reads the stream without the key. Inside the seal: three big-endian 4-byte lengths
(header, request body, response body), the header as JSON, then the two bodies as they were.

Bounds. Publishing is one Lua script per hand-off (:data:`PUBLISH_LUA`). The stream holds at most
:data:`BACKLOG_CAP` entries not yet consumed and :data:`STREAM_MAX_BYTES` of them (an entry counts as
its sealed length plus :data:`ENTRY_OVERHEAD`, added to ``<stream>:bytes`` in the same call as its
XADD and given back by the consumer's acknowledgement). Entries are added in order until the next
one does not fit; the script then stops and says how many it took, and the rest wait in the
process for its next hand-off (a burst the consumer has not caught up with is back-pressure, not a
loss; the process's own buffer is bounded: app/platform/request_log/buffer.py). An entry larger
than the whole byte bound can never fit: it is dropped and counted in :data:`DROPPED` (reason
``stream_full``). With the runtime's 144 MiB (models/runtime/stream.py) that is 176 MiB under the
embedded Redis's 256 MiB maxmemory.
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, NamedTuple

import orjson
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from kit.sealing import derive_key

# One hash tag for the stream and its counter: the publishing script touches both (Redis Cluster slot).
STREAM = "{platform-request-log}:records"
DEAD_STREAM = "{platform-request-log}:dead"  # entries the consumer could not write even alone
DROPPED = "{platform-request-log}:dropped"  # a hash: reason -> entries refused at the bound
GROUP = "platform-request-log"
FIELD = "r"
SYSTEM, PURPOSE = "platform", "request-log-stream"

MIB = 1024 * 1024
BACKLOG_CAP = 100_000
MAXLEN = 120_000  # a backstop far above the cap: trimming never eats unread entries
STREAM_MAX_BYTES = 32 * MIB
ENTRY_OVERHEAD = 64
NONCE_BYTES = 12
_LENGTHS = struct.Struct(">III")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def stream_bytes(stream: str = STREAM) -> str:
    """The counter of the stream's unconsumed bytes (same hash tag as the stream)."""
    return stream + ":bytes"


# KEYS: the stream, its byte counter, the dropped counters. ARGV: the entry cap, the byte bound, the
# overhead an entry counts, MAXLEN, then one sealed entry per argument, in order. Adds entries until
# the next one does not fit now; returns how many arguments were taken (added, or dropped for being
# larger than the whole bound), how many of those were dropped, and the id of the last one added
# ('' when none was).
PUBLISH_LUA = """
local cap, max_bytes, overhead, maxlen = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local length = redis.call('XLEN', KEYS[1])
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
if length == 0 and held ~= 0 then
  -- an empty stream holds nothing: a counter left by a deleted stream starts again
  redis.call('SET', KEYS[2], 0)
  held = 0
end
local taken, dropped, added, last = 0, 0, 0, ''
for i = 5, #ARGV do
  local bytes = #ARGV[i] + overhead
  if bytes > max_bytes then
    dropped = dropped + 1
  elseif length >= cap or held + bytes > max_bytes then
    break
  else
    last = redis.call('XADD', KEYS[1], 'MAXLEN', '~', maxlen, '*', '""" + FIELD + """', ARGV[i])
    length, held, added = length + 1, held + bytes, added + bytes
  end
  taken = taken + 1
end
if added > 0 then redis.call('INCRBY', KEYS[2], added) end
if dropped > 0 then redis.call('HINCRBY', KEYS[3], 'stream_full', dropped) end
return {taken, dropped, last}
"""


class Owner(NamedTuple):
    """What a row needs of the key the gate accepted (app/platform/api_key/principal.py has these too)."""
    tenant_pk: int
    key_id: str
    key_name: str
    mode: str


@dataclass(slots=True)
class Record:
    """A captured request as the consumer reads it back: the fields of app/platform/request_log/
    capture.py's ``Captured``, with the gate's principal reduced to its :class:`Owner`."""
    created_at: datetime
    duration_ms: float
    method: str
    path: str
    route: str | None
    known_query: tuple[str, ...]
    args: dict[str, list[str]] | None
    status: int
    principal: Owner | None
    key_digest: str | None
    idempotency_header: str | None
    request_id: str
    trace_id: str
    request_body: bytes | None
    response_body: bytes | None


class Sealer:
    """Seals entries under the stream's own key of the first (newest) of ``secret_keys`` and opens
    them under any of them: entries a process sealed before a rotation of SECRET_KEY are still read
    (derived once per process)."""

    def __init__(self, *secret_keys: str) -> None:
        self._ciphers = [AESGCM(derive_key(secret_key, SYSTEM, PURPOSE)) for secret_key in secret_keys]
        self._cipher = self._ciphers[0]

    def seal_many(self, records: Iterable[Any]) -> list[bytes]:
        """Each record (a ``Captured`` or a :class:`Record`) as one sealed entry."""
        records = list(records)
        nonces = os.urandom(NONCE_BYTES * len(records))  # one read of the CSPRNG for the hand-off
        sealed = []
        for index, record in enumerate(records):
            nonce = nonces[index * NONCE_BYTES:(index + 1) * NONCE_BYTES]
            sealed.append(nonce + self._cipher.encrypt(nonce, encode(record), None))
        return sealed

    def open(self, sealed: bytes) -> Record:
        """The record of an entry (ValueError when it is not one of ours)."""
        for cipher in self._ciphers:
            try:
                plain = cipher.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], None)
            except Exception:  # InvalidTag: another key, or altered
                continue
            return decode(plain)
        raise ValueError("not a sealed request-log entry")


def _json(value: dict) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:  # a lone surrogate (a path or query value): the standard library escapes it
        return json.dumps(value, separators=(",", ":")).encode()


def encode(record: Any) -> bytes:
    principal = record.principal
    header = _json({
        "c": (record.created_at - _EPOCH) // timedelta(microseconds=1), "d": record.duration_ms,
        "m": record.method, "p": record.path, "r": record.route, "k": list(record.known_query),
        "a": record.args, "s": record.status,
        "o": None if principal is None else [principal.tenant_pk, principal.key_id, principal.key_name,
                                             principal.mode],
        "h": record.key_digest, "i": record.idempotency_header, "q": record.request_id, "t": record.trace_id})
    request, response = record.request_body or b"", record.response_body or b""
    return b"".join((_LENGTHS.pack(len(header), len(request), len(response)), header, request, response))


def decode(plain: bytes) -> Record:
    """ValueError when ``plain`` is not an encoded record."""
    try:
        sizes = _LENGTHS.unpack_from(plain)
    except struct.error as error:
        raise ValueError("short entry") from error
    start = _LENGTHS.size
    if start + sum(sizes) != len(plain):
        raise ValueError("entry lengths do not add up")
    raw = plain[start:start + sizes[0]]
    try:
        header = orjson.loads(raw)
    except orjson.JSONDecodeError:
        header = json.loads(raw)
    request = plain[start + sizes[0]:start + sizes[0] + sizes[1]]
    response = plain[start + sizes[0] + sizes[1]:]
    owner = header["o"]
    return Record(
        created_at=_EPOCH + timedelta(microseconds=header["c"]), duration_ms=header["d"], method=header["m"],
        path=header["p"], route=header["r"], known_query=tuple(header["k"]), args=header["a"], status=header["s"],
        principal=Owner(*owner) if owner is not None else None, key_digest=header["h"],
        idempotency_header=header["i"], request_id=header["q"], trace_id=header["t"],
        request_body=request or None, response_body=response or None)
