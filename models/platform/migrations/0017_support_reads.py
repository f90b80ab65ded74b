"""Support sessions record every read the operator makes in the account (``support_reads``, read by
the account's members at /api/tenants/{id}/impersonations/{supportId}/reads)."""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('platform', '0016_access_request_verified')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SupportRead',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('support', fields.ForeignKeyField('platform.SupportSession', source_field='support_id', db_constraint=True, to_field='id', related_name='reads', on_delete=OnDelete.CASCADE)),
                ('method', fields.CharField(max_length=10)),
                ('path', fields.CharField(max_length=500)),
                ('status', fields.IntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'support_reads', 'app': 'platform', 'indexes': [Index(fields=['support_id', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
