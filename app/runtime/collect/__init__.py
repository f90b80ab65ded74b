"""Collection, the public edge of analytics: ``GET /pixel.js`` (and the vendored recorder),
``POST /collect`` and ``POST /replay`` with their CORS preflight. Nothing here touches the database:
accepted batches go to Redis Streams (models/runtime/stream.py) for the stream consumer (tasks/streams/runtime.py)."""
