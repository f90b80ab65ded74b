from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('runtime', '0003_submission_anonymized')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Submission',
            name='notice',
            field=fields.CharField(null=True, max_length=16),
        ),
        ops.AddField(
            model_name='Submission',
            name='noticed_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
