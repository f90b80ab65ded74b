from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('mail', '0002_received')]

    initial = False

    operations = [
        ops.CreateModel(
            name='OutboxEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('actor', fields.CharField(max_length=64)),
                ('queue', fields.CharField(max_length=32)),
                ('args', fields.JSONField(encoder=JSON_DUMPS, decoder=loads)),
                ('delay_ms', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('published_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'outbox', 'app': 'mail', 'pk_attr': 'id'},
            bases=['OutboxBase'],
        ),
    ]
