"""Suppressions name their cause (reason bounce or complaint, the message) and have public ids; one row
per reason; reports that match no message are kept in returns_unmatched (docs/bounces.md)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from models.platform.suppression import new_suppression_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.constraints import UniqueConstraint

# As models.platform.suppression.PUBLIC_ID_SQL was when this was written.
PUBLIC_ID_SQL = "'sup_' || substr(md5(gen_random_uuid()::text), 1, 24)"


class AddFieldState(ops.AddField):
    """AddField for the migration state only: the column is made by the RunSQL after it."""

    async def database_forward(self, app_label, old_state, new_state, state_editor=None) -> None:
        return None

    async def database_backward(self, app_label, old_state, new_state, state_editor=None) -> None:
        return None


class Migration(migrations.Migration):
    dependencies = [('platform', '0017_support_reads')]

    initial = False

    operations = [
        ops.CreateModel(
            name='UnmatchedReturn',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('recipient', fields.CharField(max_length=512)),
                ('kind', fields.CharField(max_length=16)),
                ('reason', fields.CharField(max_length=200)),
                ('message_public_id', fields.CharField(null=True, max_length=60)),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'returns_unmatched', 'app': 'platform', 'pk_attr': 'id', 'table_description': 'A report Herald received and could not tie to a message of ours: kept a while for the operator.'},
            bases=['Model'],
        ),
        ops.RemoveConstraint(
            model_name='Suppression',
            name=None,
            fields=['tenant', 'channel', 'address'],
        ),
        ops.AddField(
            model_name='Suppression',
            name='message',
            field=fields.ForeignKeyField('platform.Message', source_field='message_id', null=True, db_constraint=True, to_field='id', related_name='suppressions', on_delete=OnDelete.SET_NULL),
        ),
        # Existing rows (the CRM's) get an id each, and rows written in SQL get one from the database.
        AddFieldState(
            model_name='Suppression',
            name='public_id',
            field=fields.CharField(default=new_suppression_id, unique=True, max_length=40),
        ),
        ops.RunSQL([f"ALTER TABLE suppressions ADD COLUMN public_id VARCHAR(40) NOT NULL DEFAULT ({PUBLIC_ID_SQL})",
                    "CREATE UNIQUE INDEX suppressions_public_id_key ON suppressions (public_id)"],
                   reverse_sql=["ALTER TABLE suppressions DROP COLUMN public_id"]),
        ops.AddIndex(
            model_name='Suppression',
            index=Index(fields=['tenant_id', 'id']),
        ),
        ops.AddConstraint(
            model_name='Suppression',
            constraint=UniqueConstraint(fields=('tenant', 'channel', 'address', 'reason'), name=None),
        ),
    ]
