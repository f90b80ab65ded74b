"""The stream consumer's room (``herald consume``): not actors. Dramatiq runs the actors of the
modules beside this package; this one is a long-running process of its own that reads Redis Streams
through consumer groups and writes what it reads to PostgreSQL in batches.

- ``consume``: the process (arguments, bounded Redis pools, the ORM, signals);
- ``loop``: the consumer loop every stream kind shares (groups, reads, claims of what a dead
  consumer left pending, acknowledgement after the commit, pauses while Redis or the database is away);
- ``group``: upkeep of a consumer group (acknowledging and giving bytes back to a stream's byte
  bound, trimming, forgetting consumers that are gone);
- one module per stream kind: ``runtime`` (the runtime's collected events and replays, with
  ``live``, its live fan-out, and ``clicks``, its click flush) and ``request_log`` (the platform's
  request log: rows built and written here, not in the HTTP process).
"""
