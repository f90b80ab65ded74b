from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('identity', '0002_email_drain_and_code')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Session',
            name='reauthenticated_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
