from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index


class Migration(migrations.Migration):
    dependencies = [('runtime', '0001_runtime')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Submission',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('source', fields.CharField(max_length=8)),
                ('form_id', fields.CharField(default='', max_length=40)),
                ('page_id', fields.CharField(default='', max_length=40)),
                ('page', fields.CharField(default='', max_length=512)),
                ('variant', fields.CharField(default='', max_length=40)),
                ('data', fields.TextField(unique=False)),
                ('occurred_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('forwarded_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('contact_id', fields.CharField(null=True, max_length=64)),
                ('attempts', fields.IntField(default=0)),
                ('last_error', fields.CharField(null=True, max_length=200)),
            ],
            options={'table': 'form_submissions', 'app': 'runtime', 'indexes': [Index(fields=['tenant', 'created_at']), Index(fields=['tenant', 'page', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
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
            options={'table': 'outbox', 'app': 'runtime', 'pk_attr': 'id'},
            bases=['OutboxBase'],
        ),
    ]
