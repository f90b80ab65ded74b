from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from models.platform.webhook import all_events, new_delivery_id, new_endpoint_id, new_event_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('platform', '0004_request_logs')]

    initial = False

    operations = [
        ops.CreateModel(
            name='WebhookEndpoint',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_endpoint_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='webhook_endpoints', on_delete=OnDelete.CASCADE)),
                ('mode', fields.CharField(max_length=4)),
                ('url', fields.CharField(max_length=2048)),
                ('description', fields.CharField(default='', max_length=500)),
                ('event_types', fields.JSONField(default=all_events, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('enabled', fields.BooleanField(default=True)),
                ('disabled_reason', fields.TextField(null=True, unique=False)),
                ('disabled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('secret_sealed', fields.TextField(unique=False)),
                ('previous_secret_sealed', fields.TextField(null=True, unique=False)),
                ('previous_secret_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('consecutive_failures', fields.IntField(default=0)),
                ('failing_since', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('breaker_open_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_success_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'webhook_endpoints', 'app': 'platform', 'indexes': [Index(fields=['tenant_id', 'mode', 'enabled'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebhookEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_event_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='webhook_events', on_delete=OnDelete.CASCADE)),
                ('mode', fields.CharField(max_length=4)),
                ('type', fields.CharField(max_length=64)),
                ('message_id', fields.BigIntField(null=True)),
                ('data', fields.JSONField(encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'webhook_events', 'app': 'platform', 'indexes': [Index(fields=['tenant_id', 'mode', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebhookDelivery',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_delivery_id, unique=True, max_length=40)),
                ('endpoint', fields.ForeignKeyField('platform.WebhookEndpoint', source_field='endpoint_id', db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE)),
                ('event', fields.ForeignKeyField('platform.WebhookEvent', source_field='event_id', db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE)),
                ('tenant_id', fields.BigIntField()),
                ('status', fields.CharField(default='pending', max_length=10)),
                ('attempts', fields.SmallIntField(default=0)),
                ('next_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('lease_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('one_shot', fields.BooleanField(default=False)),
                ('last_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_status_code', fields.IntField(null=True)),
                ('last_error', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'webhook_deliveries', 'app': 'platform', 'indexes': [Index(fields=['endpoint_id', 'id']), Index(fields=['status', 'next_attempt_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebhookAttempt',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('delivery', fields.ForeignKeyField('platform.WebhookDelivery', source_field='delivery_id', db_constraint=True, to_field='id', related_name='attempt_rows', on_delete=OnDelete.CASCADE)),
                ('number', fields.SmallIntField()),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('duration_ms', fields.IntField()),
                ('outcome', fields.CharField(max_length=20)),
                ('status_code', fields.IntField(null=True)),
                ('error', fields.TextField(null=True, unique=False)),
                ('response_excerpt', fields.TextField(null=True, unique=False)),
            ],
            options={'table': 'webhook_attempts', 'app': 'platform', 'indexes': [Index(fields=['delivery_id', 'number'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
