from tortoise import migrations
from tortoise.migrations import operations as ops
from models.mail.received import new_received_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('mail', '0001_mail')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ReceivedMessage',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_received_id, unique=True, max_length=40)),
                ('tenant_id', fields.CharField(max_length=40)),
                ('mailbox', fields.ForeignKeyField('mail.Mailbox', source_field='mailbox_id', db_constraint=True, to_field='id', related_name='received', on_delete=OnDelete.CASCADE)),
                ('digest', fields.CharField(max_length=64)),
                ('sealed_message', fields.BinaryField()),
                ('sealed_summary', fields.TextField(unique=False)),
                ('size', fields.IntField()),
                ('spf', fields.CharField(default='none', max_length=16)),
                ('dkim', fields.CharField(default='none', max_length=16)),
                ('dmarc', fields.CharField(default='none', max_length=16)),
                ('received_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'received_messages', 'app': 'mail', 'unique_together': (('mailbox', 'digest'),), 'indexes': [Index(fields=['tenant_id', 'received_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
