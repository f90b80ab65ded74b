from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from models.platform.message import new_message_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('platform', '0001_tenants_keys_usage')]

    initial = False

    operations = [
        ops.CreateModel(
            name='IdempotencyRecord',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='idempotency_records', on_delete=OnDelete.CASCADE)),
                ('operation', fields.CharField(max_length=32)),
                ('key', fields.CharField(max_length=140)),
                ('body_hash', fields.CharField(max_length=64)),
                ('message_ids', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'idempotency_records', 'app': 'platform', 'unique_together': (('tenant', 'operation', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Message',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_message_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='messages', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(max_length=10)),
                ('status', fields.CharField(default='queued', max_length=12)),
                ('mode', fields.CharField(max_length=4)),
                ('api_key_id', fields.BigIntField(null=True)),
                ('recipient', fields.CharField(max_length=512)),
                ('recipient_role', fields.CharField(max_length=8)),
                ('sender', fields.CharField(null=True, max_length=512)),
                ('subject', fields.TextField(null=True, unique=False)),
                ('content', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('tags', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('idempotency_key', fields.CharField(null=True, max_length=140)),
                ('provider', fields.CharField(null=True, max_length=64)),
                ('provider_message_id', fields.CharField(null=True, max_length=255)),
                ('attempts', fields.SmallIntField(default=0)),
                ('lease_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('next_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('failure_reason', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'messages', 'app': 'platform', 'indexes': [Index(fields=['tenant_id', 'channel', 'id']), Index(fields=['status', 'updated_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='MessageEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('message', fields.ForeignKeyField('platform.Message', source_field='message_id', db_constraint=True, to_field='id', related_name='events', on_delete=OnDelete.CASCADE)),
                ('type', fields.CharField(max_length=24)),
                ('detail', fields.JSONField(null=True, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'message_events', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='OutboxEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('actor', fields.CharField(max_length=64)),
                ('queue', fields.CharField(max_length=32)),
                ('args', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('delay_ms', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('published_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'outbox', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SenderDomain',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='domains', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=253)),
                ('verified_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'sender_domains', 'app': 'platform', 'unique_together': (('tenant', 'name'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Suppression',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='suppressions', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(max_length=10)),
                ('address', fields.CharField(max_length=512)),
                ('reason', fields.CharField(max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'suppressions', 'app': 'platform', 'unique_together': (('tenant', 'channel', 'address'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WhatsappTemplate',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='whatsapp_templates', on_delete=OnDelete.CASCADE)),
                ('slug', fields.CharField(max_length=100)),
                ('language', fields.CharField(default='en', max_length=10)),
                ('status', fields.CharField(default='pending', max_length=10)),
                ('body', fields.TextField(unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'whatsapp_templates', 'app': 'platform', 'unique_together': (('tenant', 'slug'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='UsageCounter',
            name='whatsapp_sent',
            field=fields.BigIntField(default=0),
        ),
        # The relay and the reconciler only ever look at work not yet done: keep those indexes small.
        ops.RunSQL(
            "CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL",
            reverse_sql="DROP INDEX outbox_unpublished",
        ),
        ops.RunSQL(
            "CREATE INDEX messages_in_flight ON messages (updated_at) WHERE status IN ('queued', 'sending')",
            reverse_sql="DROP INDEX messages_in_flight",
        ),
    ]
