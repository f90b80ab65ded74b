from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from models.platform.api_key import new_key_id
from models.platform.tenant import new_tenant_id
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Tenant',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_tenant_id, unique=True, max_length=40)),
                ('name', fields.CharField(max_length=200)),
                ('slug', fields.CharField(unique=True, max_length=100)),
                ('parent', fields.ForeignKeyField('platform.Tenant', source_field='parent_id', null=True, db_constraint=True, to_field='id', related_name='children', on_delete=OnDelete.RESTRICT)),
                ('monthly_quota', fields.BigIntField(null=True)),
                ('effective_quota', fields.BigIntField(null=True)),
                ('status', fields.CharField(default='active', max_length=20)),
                ('plan', fields.CharField(default='', max_length=50)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'tenants', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ApiKey',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_key_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='api_keys', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=200)),
                ('kind', fields.CharField(max_length=12)),
                ('hint', fields.CharField(max_length=20)),
                ('key_hash', fields.CharField(unique=True, max_length=64)),
                ('scopes', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('mode', fields.CharField(max_length=4)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('last_used_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('revoked_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'api_keys', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='UsageCounter',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='usage', on_delete=OnDelete.CASCADE)),
                ('period', fields.CharField(max_length=7)),
                ('shard', fields.SmallIntField()),
                ('emails_sent', fields.BigIntField(default=0)),
                ('sms_sent', fields.BigIntField(default=0)),
                ('push_sent', fields.BigIntField(default=0)),
                ('api_calls', fields.BigIntField(default=0)),
                ('updated_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'usage_counters', 'app': 'platform', 'unique_together': (('tenant', 'period', 'shard'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
