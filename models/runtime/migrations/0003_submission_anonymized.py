from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('runtime', '0002_leads')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Submission',
            name='anonymized_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
