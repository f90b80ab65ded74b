from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('identity', '0001_initial')]

    initial = False

    operations = [
        ops.CreateModel(
            name='EmailCode',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.ForeignKeyField('identity.User', source_field='user_id', db_constraint=True, to_field='id', related_name='email_codes', on_delete=OnDelete.CASCADE)),
                ('ticket_nonce', fields.CharField(max_length=32)),
                ('code_hash', fields.CharField(max_length=64)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('used_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('superseded_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('failures', fields.IntField(default=0)),
            ],
            options={'table': 'email_codes', 'app': 'identity', 'indexes': [Index(fields=['user_id', 'ticket_nonce'])], 'pk_attr': 'id', 'table_description': "One e-mailed login code, bound to the login's challenge ticket (its nonce); only an HMAC is kept."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='EmailFactor',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user', fields.OneToOneField('identity.User', source_field='user_id', db_constraint=True, to_field='id', related_name='email_factor', on_delete=OnDelete.CASCADE)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'email_factors', 'app': 'identity', 'pk_attr': 'id', 'table_description': "The e-mail method of the second factor: at login a one-time code goes to the user's address."},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='OutboxEmail',
            name='enqueued_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='OutboxEmail',
            name='lease_until',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='OutboxEmail',
            name='message_id',
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name='OutboxEmail',
            name='next_attempt_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
    ]
