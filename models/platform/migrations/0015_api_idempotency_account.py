"""Dashboard idempotency records are scoped to the account the request acts on
(models/platform/api_idempotency.py): a ``tenant`` column (the account's public id, ``''`` for
routes that act on none, which is also what the records already there get), and the unique key
becomes (caller, tenant, key). Before, the same key sent to a second account replayed the first
account's answer and wrote nothing.

Written by hand: the column is added in SQL so existing rows get ``''`` (``AddField`` here only
records it in the migration state), and the old unique constraint, whose name the first
migration let the database choose, is found in the catalog and dropped.
"""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class AddFieldState(ops.AddField):
    """AddField for the migration state only: the column is made by the RunSQL below."""

    async def database_forward(self, app_label, old_state, new_state, state_editor=None) -> None:
        return None

    async def database_backward(self, app_label, old_state, new_state, state_editor=None) -> None:
        return None


FORWARD = """
ALTER TABLE api_idempotency_records ADD COLUMN tenant varchar(40) NOT NULL DEFAULT '';
DO $$ DECLARE name text; BEGIN
  FOR name IN SELECT conname FROM pg_constraint
              WHERE conrelid = 'api_idempotency_records'::regclass AND contype = 'u' LOOP
    EXECUTE format('ALTER TABLE api_idempotency_records DROP CONSTRAINT %I', name);
  END LOOP;
END $$;
ALTER TABLE api_idempotency_records ADD CONSTRAINT api_idempotency_records_scope_key
  UNIQUE (caller, tenant, key);
"""

BACKWARD = """
ALTER TABLE api_idempotency_records DROP CONSTRAINT api_idempotency_records_scope_key;
DELETE FROM api_idempotency_records a USING api_idempotency_records b
  WHERE a.caller = b.caller AND a.key = b.key AND a.id < b.id;
ALTER TABLE api_idempotency_records DROP COLUMN tenant;
ALTER TABLE api_idempotency_records ADD CONSTRAINT api_idempotency_records_caller_key_key UNIQUE (caller, key);
"""


class Migration(migrations.Migration):
    dependencies = [('platform', '0014_report_daily_folds')]

    initial = False

    operations = [
        AddFieldState(model_name='ApiIdempotencyRecord', name='tenant',
                      field=fields.CharField(default='', max_length=40)),
        ops.RunSQL(FORWARD, reverse_sql=BACKWARD),
        ops.AlterModelOptions(name='ApiIdempotencyRecord', options={
            'table': 'api_idempotency_records', 'app': 'platform', 'pk_attr': 'id',
            'unique_together': (('caller', 'tenant', 'key'),)}),
    ]
