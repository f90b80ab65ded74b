"""The platform's request log, below the HTTP process and the stream consumer that share it:

- ``table``: the ``request_logs`` table (partitioned by month), its ids and the batched insert;
- ``stream``: the Redis Stream the HTTP process hands captured requests to, its byte bound and the
  sealed encoding of an entry;
- ``rows``: a captured request turned into its row (key, redaction, error code, message ids), done
  by the stream consumer (tasks/streams/request_log.py);
- ``redaction`` (the rules, versioned), ``body`` (a body read and redacted in bounded time),
  ``whole`` (a body kept whole, from one C parse), ``tokens`` (JSON one token at a time).

The HTTP side (capture, the bounded hand-off, GET /v1/logs) is app/platform/request_log/.
"""

from models.platform.request_log.table import (COLUMNS, ID_PREFIX, INSERT_SQL, MONTHS_AHEAD, RANDOM_BYTES, TABLE,
                                               RequestLog, created_at_of, ensure_partitions, insert_many, micros_of,
                                               month_start, months_from, new_log_id, next_month, partition_name,
                                               storable)

__all__ = ["COLUMNS", "ID_PREFIX", "INSERT_SQL", "MONTHS_AHEAD", "RANDOM_BYTES", "TABLE", "RequestLog",
           "created_at_of", "ensure_partitions", "insert_many", "micros_of", "month_start", "months_from",
           "new_log_id", "next_month", "partition_name", "storable"]
