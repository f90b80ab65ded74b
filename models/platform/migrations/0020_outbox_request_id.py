from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('platform', '0019_table_comments')]

    initial = False

    operations = [
        ops.AddField(
            model_name='OutboxEntry',
            name='request_id',
            field=fields.CharField(null=True, max_length=40),
        ),
    ]
