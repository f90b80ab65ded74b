"""How far behind a broker queue is: the seconds its oldest job still waiting has waited.

A sweep that hands work back to the workers when it has not moved for a while must not take a job
that is merely waiting its turn for one that was lost. Behind a campaign of a million e-mails the
e-mail queue can be an hour long: every message in it is legitimately queued that long, and handing
it back would only add a second job to the queue (and an attempt towards giving up on the message).
The lag of a queue is the age of the job at its head (Dramatiq's Redis broker appends at the tail of
the list ``<namespace>:<queue>`` and workers take from its head; the job itself, with the time it was
first enqueued, is in the hash ``<namespace>:<queue>.msgs``). A job enqueued more than the lag ago
and still not taken is not in the queue any more: lost, or held by a worker that died.
"""

from __future__ import annotations

import json
import time

import redis.asyncio as aioredis

from kit.actors import BROKER_NAMESPACE



async def queue_lags(redis: aioredis.Redis, queues: list[str],
                     namespace: str = BROKER_NAMESPACE) -> dict[str, float]:
    """Per queue, the seconds its head job has waited since it was first enqueued (0 when empty, or
    when the head was taken between the two reads). Two round trips, whatever the queues' length."""
    async with redis.pipeline(transaction=False) as pipe:
        for queue in queues:
            pipe.lindex(f"{namespace}:{queue}", 0)
        heads = await pipe.execute()
    found = [(queue, head) for queue, head in zip(queues, heads) if head is not None]
    lags = dict.fromkeys(queues, 0.0)
    if not found:
        return lags
    async with redis.pipeline(transaction=False) as pipe:
        for queue, head in found:
            pipe.hget(f"{namespace}:{queue}.msgs", head)
        bodies = await pipe.execute()
    now_ms = time.time() * 1000
    for (queue, _), body in zip(found, bodies):
        if body is None:
            continue
        try:
            enqueued_ms = float(json.loads(body)["message_timestamp"])
        except (ValueError, KeyError, TypeError):
            continue  # not a job this code can read: no lag assumed, as before
        lags[queue] = max(0.0, (now_ms - enqueued_ms) / 1000)
    return lags
