"""CRM destinations, conversion integrations, their deliveries (one drain) and account alerts (issue 17, part B)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from models.crm.alert import new_alert_event_id, new_alert_id
from models.crm.delivery import new_delivery_id, new_destination_id, new_integration_id
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('crm', '0002_journeys')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ConversionIntegration',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_integration_id, unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('name', fields.CharField(max_length=200)),
                ('kind', fields.CharField(max_length=16)),
                ('config', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('secret_sealed', fields.TextField(unique=False)),
                ('mappings', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('enabled', fields.BooleanField(default=True)),
                ('consecutive_failures', fields.IntField(default=0)),
                ('breaker_open_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_success_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'crm_conversion_integrations', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CrmAlert',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_alert_id, unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('name', fields.CharField(max_length=200)),
                ('metric', fields.CharField(max_length=32)),
                ('threshold', fields.FloatField()),
                ('window_minutes', fields.IntField(default=60)),
                ('enabled', fields.BooleanField(default=True)),
                ('state', fields.CharField(default='calm', max_length=16)),
                ('state_changed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('version', fields.IntField(default=1)),
                ('last_value', fields.FloatField(null=True)),
                ('last_evaluated_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'crm_alerts', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CrmAlertEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_alert_event_id, unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('alert', fields.ForeignKeyField('crm.CrmAlert', source_field='alert_id', null=True, db_constraint=True, to_field='id', related_name='events', on_delete=OnDelete.SET_NULL)),
                ('alert_public_id', fields.CharField(max_length=40)),
                ('alert_name', fields.CharField(max_length=200)),
                ('metric', fields.CharField(max_length=32)),
                ('kind', fields.CharField(max_length=16)),
                ('value', fields.FloatField(null=True)),
                ('threshold', fields.FloatField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'crm_alert_events', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CrmDestination',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_destination_id, unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('url', fields.CharField(max_length=2048)),
                ('description', fields.CharField(default='', max_length=200)),
                ('events', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('enabled', fields.BooleanField(default=True)),
                ('secret_sealed', fields.TextField(unique=False)),
                ('consecutive_failures', fields.IntField(default=0)),
                ('breaker_open_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_success_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'crm_destinations', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='CrmDelivery',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_delivery_id, unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('target_kind', fields.CharField(max_length=16)),
                ('destination', fields.ForeignKeyField('crm.CrmDestination', source_field='destination_id', null=True, db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE)),
                ('integration', fields.ForeignKeyField('crm.ConversionIntegration', source_field='integration_id', null=True, db_constraint=True, to_field='id', related_name='deliveries', on_delete=OnDelete.CASCADE)),
                ('event_id', fields.CharField(max_length=40)),
                ('event_type', fields.CharField(max_length=64)),
                ('payload', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('test', fields.BooleanField(default=False)),
                ('status', fields.CharField(default='pending', max_length=16)),
                ('attempts', fields.IntField(default=0)),
                ('next_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('lease_until', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_status_code', fields.IntField(null=True)),
                ('last_error', fields.TextField(null=True, unique=False)),
                ('duration_ms', fields.IntField(null=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'crm_deliveries', 'app': 'crm', 'indexes': [Index(fields=['destination_id', 'id']), Index(fields=['integration_id', 'id']), Index(fields=['status', 'next_attempt_at']), Index(fields=['tenant', 'status', 'updated_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
