"""The identity system gets the outbox every system has (models/outbox.py); its e-mail rows, which
lived in a table named ``outbox``, move to ``emails`` (model ``IdentityEmail``).

Written by hand: the table rename is SQL, and ``AlterModelOptions`` records it in the state only.
"""

from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields
from tortoise.indexes import Index


class Migration(migrations.Migration):
    dependencies = [('identity', '0003_session_reauthenticated_at')]

    initial = False

    operations = [
        ops.RunSQL("ALTER TABLE outbox RENAME TO emails", reverse_sql="ALTER TABLE emails RENAME TO outbox"),
        ops.AlterModelOptions(
            name='OutboxEmail',
            options={'table': 'emails', 'app': 'identity', 'indexes': [Index(fields=['sent_at', 'id'])],
                     'pk_attr': 'id'},
        ),
        ops.RenameModel('OutboxEmail', 'IdentityEmail'),
        ops.CreateModel(
            name='OutboxEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('actor', fields.CharField(max_length=64)),
                ('queue', fields.CharField(max_length=32)),
                ('args', fields.JSONField()),
                ('delay_ms', fields.IntField(default=0)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('published_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'outbox', 'app': 'identity', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
