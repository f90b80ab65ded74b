"""Report counters get a shard (models/platform/report.py): the unique key of both tables gains
``shard``, so concurrent accepts of one account add to different rows instead of queueing on one
row's lock until each commit is flushed. Existing counts stay in shard 0."""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops

TABLES = (("report_counters", "hour"), ("report_daily_counters", "day"))

# A database default as well: raw inserts that name no shard (seeding, tests) land in shard 0.
FORWARD = "\n".join(f"""
ALTER TABLE {table} ALTER COLUMN shard SET DEFAULT 0;
DO $$ DECLARE name text; BEGIN
  SELECT conname INTO name FROM pg_constraint WHERE conrelid = '{table}'::regclass AND contype = 'u';
  IF name IS NOT NULL THEN EXECUTE format('ALTER TABLE {table} DROP CONSTRAINT %I', name); END IF;
END $$;
ALTER TABLE {table} ADD CONSTRAINT {table}_key
  UNIQUE (tenant_id, mode, {column}, channel, status, template, shard);""" for table, column in TABLES)


class Migration(migrations.Migration):
    dependencies = [('platform', '0012_template_approval')]

    initial = False

    operations = [
        ops.AddField(model_name='ReportCounter', name='shard', field=fields.SmallIntField(default=0)),
        ops.AddField(model_name='ReportDailyCounter', name='shard', field=fields.SmallIntField(default=0)),
        ops.RunSQL(FORWARD, reverse_sql=ops.RunSQL.noop),
        ops.AlterModelOptions(name='ReportCounter', options={
            'table': 'report_counters', 'app': 'platform', 'pk_attr': 'id',
            'unique_together': (('tenant', 'mode', 'hour', 'channel', 'status', 'template', 'shard'),)}),
        ops.AlterModelOptions(name='ReportDailyCounter', options={
            'table': 'report_daily_counters', 'app': 'platform', 'pk_attr': 'id',
            'unique_together': (('tenant', 'mode', 'day', 'channel', 'status', 'template', 'shard'),)}),
    ]
