"""The Redis mirror of each pixel's current key version, read by /collect and /replay so a rotated
or disabled credential is refused at the edge without a database query.

Written after the commit that changed the pixel. When Redis cannot be written the edge may still
take the old credential for a while; the stream consumer checks every entry against the pixels
table before writing anything, so such events are dropped there (traffic quality ``credential``).
"""

from __future__ import annotations

import logging

import redis.asyncio as aioredis

from models.runtime.pixel import Pixel, version_mark
from models.runtime.stream import PIXEL_VERSIONS

log = logging.getLogger("herald.runtime.pixel")


async def publish(redis: aioredis.Redis, pixel: Pixel) -> None:
    try:
        await redis.hset(PIXEL_VERSIONS, pixel.public_id, version_mark(pixel))
    except (aioredis.RedisError, OSError) as error:
        log.warning("pixel %s: version mirror not written (%s); the consumer still checks it", pixel.public_id,
                    type(error).__name__)
