"""Indexes the reads need at millions of rows (issue 21; measured by `make bench` with `--scale`).

- ``message_events (message_id, id)``: a message's timeline (GET /v1/emails/{id}) read one
  index range instead of scanning every event of every message.
- ``messages (tenant_id, mode, channel, status, id)``: ``GET /v1/emails?status=`` reads the
  newest messages of one status directly (a rare status no longer walks every message).
- ``GET /v1/emails?q=``: trigram GIN indexes (pg_trgm) on exactly the expressions the listing
  filters on (``UPPER(CAST(recipient AS VARCHAR)) LIKE UPPER('%q%')``, as Tortoise writes
  ``icontains``), so a substring search reads the matching rows only. When the server cannot
  create the extension (it is a trusted extension since PostgreSQL 13, so a database owner can;
  a server built without contrib cannot), the migration skips these two indexes with a notice
  and the search falls back to walking the account's newest messages on
  ``messages (tenant_id, mode, channel, id)``: fast for common terms, slow for rare ones at
  millions of rows (docs/messages.md).
- ``request_logs (tenant_id, method, created_at DESC)`` and ``(tenant_id, path, created_at
  DESC)``: the ``method`` and ``path`` filters of GET /v1/logs (``path`` matches the route or
  the path itself: with both indexed a rare value is a BitmapOr of two index ranges). Declared
  on the partitioned parent, PostgreSQL builds them on every month's partition.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops

TRIGRAM_EXTENSION = """
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN others THEN
    RAISE NOTICE 'pg_trgm is not available (%); GET /v1/emails?q= searches without a trigram index', SQLERRM;
END
$$
"""

TRIGRAM_INDEXES = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX IF NOT EXISTS messages_recipient_trgm ON messages
            USING gin (UPPER(CAST(recipient AS VARCHAR)) gin_trgm_ops);
        CREATE INDEX IF NOT EXISTS messages_subject_trgm ON messages
            USING gin (UPPER(CAST(subject AS VARCHAR)) gin_trgm_ops);
    END IF;
END
$$
"""

FORWARD = [
    "CREATE INDEX IF NOT EXISTS message_events_message ON message_events (message_id, id)",
    "CREATE INDEX IF NOT EXISTS messages_tenant_status ON messages (tenant_id, mode, channel, status, id)",
    TRIGRAM_EXTENSION,
    TRIGRAM_INDEXES,
    "CREATE INDEX IF NOT EXISTS request_logs_tenant_method ON request_logs (tenant_id, method, created_at DESC)",
    "CREATE INDEX IF NOT EXISTS request_logs_tenant_path ON request_logs (tenant_id, path, created_at DESC)",
]

BACKWARD = [
    "DROP INDEX IF EXISTS request_logs_tenant_path",
    "DROP INDEX IF EXISTS request_logs_tenant_method",
    "DROP INDEX IF EXISTS messages_subject_trgm",
    "DROP INDEX IF EXISTS messages_recipient_trgm",
    "DROP INDEX IF EXISTS messages_tenant_status",
    "DROP INDEX IF EXISTS message_events_message",
]


class Migration(migrations.Migration):
    dependencies = [('platform', '0007_tenant_purge_content')]

    initial = False

    operations = [
        ops.RunSQL(FORWARD, reverse_sql=BACKWARD),
    ]
