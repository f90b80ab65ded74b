"""Records the table descriptions of ``report_daily_folds`` and ``support_reads`` and writes them as
the tables' comments.

Tortoise takes the first line of a model's docstring as its table's description: part of the
migration state, written as ``COMMENT ON TABLE`` when a table is created. 0014 and 0017 were written
without it, so ``herald makemigrations platform`` wrote this migration again on every clean tree
(and ``herald migrate --check`` failed). ``AlterModelOptions`` changes only the state; the two
``COMMENT`` statements give these tables what every table created with its description has."""

from tortoise import migrations
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

FOLDS = "The boundary between the daily and the hourly report counters (one row, id 1)."
READS = "One read an operator made inside a support session: the account's trail of what was seen."


class Migration(migrations.Migration):
    dependencies = [('platform', '0018_suppressions_returns')]

    initial = False

    operations = [
        ops.AlterModelOptions(
            name='ReportDailyFold',
            options={'table': 'report_daily_folds', 'app': 'platform', 'pk_attr': 'id', 'table_description': FOLDS},
        ),
        ops.AlterModelOptions(
            name='SupportRead',
            options={'table': 'support_reads', 'app': 'platform', 'indexes': [Index(fields=['support_id', 'id'])],
                     'pk_attr': 'id', 'table_description': READS},
        ),
        ops.RunSQL(f"COMMENT ON TABLE report_daily_folds IS '{FOLDS}'",
                   reverse_sql="COMMENT ON TABLE report_daily_folds IS NULL"),
        ops.RunSQL("COMMENT ON TABLE support_reads IS '{}'".format(READS.replace("'", "''")),
                   reverse_sql="COMMENT ON TABLE support_reads IS NULL"),
    ]
