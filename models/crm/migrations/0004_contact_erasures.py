"""Erasures owed for anonymized contacts (models/crm/retention.py: ContactErasure)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('crm', '0003_delivery')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ContactErasure',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.CharField(max_length=64)),
                ('contacts', fields.TextField(unique=False)),
                ('count', fields.IntField()),
                ('older_than_days', fields.IntField(null=True)),
                ('deliveries_done', fields.BooleanField(default=False)),
                ('attempts', fields.IntField(default=0)),
                ('last_error', fields.CharField(null=True, max_length=200)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'contact_erasures', 'app': 'crm', 'indexes': [Index(fields=['enqueued_at'])], 'pk_attr': 'id', 'table_description': 'Anonymized contacts whose copies elsewhere are still to be erased (one per anonymized batch).'},
            bases=['Model'],
        ),
    ]
