from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from models.platform.device import new_device_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('platform', '0002_messages_outbox')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Device',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_device_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='devices', on_delete=OnDelete.CASCADE)),
                ('token', fields.CharField(max_length=2048)),
                ('platform', fields.CharField(max_length=8)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'push_devices', 'app': 'platform', 'unique_together': (('tenant', 'token'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DomainCheck',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('domain', fields.ForeignKeyField('platform.SenderDomain', source_field='domain_id', db_constraint=True, to_field='id', related_name='checks', on_delete=OnDelete.CASCADE)),
                ('outcome', fields.CharField(max_length=12)),
                ('detail', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'sender_domain_checks', 'app': 'platform', 'indexes': [Index(fields=['domain_id', 'id'])], 'pk_attr': 'id', 'table_description': 'One verification attempt of a sender domain and what it found.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ProviderConfig',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='provider_configs', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(max_length=10)),
                ('key', fields.CharField(max_length=64)),
                ('settings', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('secrets', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'provider_configs', 'app': 'platform', 'unique_together': (('tenant', 'channel', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='checked_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='dkim_private_key',
            field=fields.TextField(null=True, unique=False),
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='dkim_public_key',
            field=fields.TextField(null=True, unique=False),
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='dkim_selector',
            field=fields.CharField(default='', db_default='', max_length=63),
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='dmarc',
            field=fields.BooleanField(default=False, db_default=False),
        ),
        ops.AddField(
            model_name='SenderDomain',
            name='unreachable_since',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
