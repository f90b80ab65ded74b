"""Access requests wait for the address to be verified (models/platform/registration.py): a
nullable ``verified_at``. Requests filed before this migration were shown to the account's admins
at once; they start unverified here like new ones: shown again once the platform has seen the
address verified (a listing checks with the identity server), and expired if that did not happen
within 7 days of filing (so older unverified ones are expired at once)."""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('platform', '0015_api_idempotency_account')]

    initial = False

    operations = [
        ops.AddField(model_name='AccessRequest', name='verified_at', field=fields.DatetimeField(null=True)),
    ]
