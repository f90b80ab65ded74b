"""Tenants whose message content is dropped once a message is final (the "Herald" system tenant)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields


class Migration(migrations.Migration):
    dependencies = [('platform', '0006_idempotency_mode')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Tenant',
            name='purge_content',
            field=fields.BooleanField(default=False),
        ),
    ]
