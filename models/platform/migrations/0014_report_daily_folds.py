"""Daily report counters are folded from the hourly ones once a day has closed, instead of being
written by every transition (models/platform/report.py): ``report_daily_folds`` holds the boundary.

It starts at today's UTC midnight: every earlier day is already whole in ``report_daily_counters``
(the transitions wrote it), and today's daily rows, written by the transitions until now, are
replaced by the first fold after today closes. Readers take today from the hourly counters."""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops

BOUNDARY = ("INSERT INTO report_daily_folds (id, before) VALUES (1, date_trunc('day', now(), 'UTC')) "
            "ON CONFLICT (id) DO NOTHING")


class Migration(migrations.Migration):
    dependencies = [('platform', '0013_report_shards')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ReportDailyFold',
            fields=[
                ('id', fields.SmallIntField(generated=False, primary_key=True, unique=True, db_index=True)),
                ('before', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'report_daily_folds', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.RunSQL(BOUNDARY, reverse_sql=ops.RunSQL.noop),
    ]
