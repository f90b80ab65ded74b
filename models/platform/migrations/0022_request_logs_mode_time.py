"""``request_logs (tenant_id, mode, created_at DESC, id DESC)``: the reads of a test key.

A test key reads its account's test requests only (app/platform/request_log/service.py:
``scope``). On ``(tenant_id, created_at DESC, id DESC)`` such a read walks every live request
of the window before it finds the test ones that match: with a day of heavy live traffic, a
filter on a rare status class or path read hundreds of thousands of rows (142.6 ms p95 for
``status_class=4xx`` over 5 million rows in `make bench`'s scale step). This index gives the
test requests in time order directly. Declared on the partitioned parent, PostgreSQL builds it
on every month's partition.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('platform', '0021_support_read_system')]

    initial = False

    operations = [
        ops.RunSQL(
            ["CREATE INDEX IF NOT EXISTS request_logs_tenant_mode_time "
             "ON request_logs (tenant_id, mode, created_at DESC, id DESC)"],
            reverse_sql=["DROP INDEX IF EXISTS request_logs_tenant_mode_time"]),
    ]
