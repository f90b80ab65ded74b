from tortoise import migrations
from tortoise.migrations import operations as ops
from models.mail.mailbox import new_mailbox_id
from models.mail.organization import new_organization_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='Organization',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_organization_id, unique=True, max_length=40)),
                ('tenant_id', fields.CharField(unique=True, max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'organizations', 'app': 'mail', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Mailbox',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_mailbox_id, unique=True, max_length=40)),
                ('tenant_id', fields.CharField(max_length=40)),
                ('organization', fields.ForeignKeyField('mail.Organization', source_field='organization_id', db_constraint=True, to_field='id', related_name='mailboxes', on_delete=OnDelete.CASCADE)),
                ('address', fields.CharField(max_length=254)),
                ('domain', fields.CharField(max_length=253)),
                ('display_name', fields.CharField(null=True, max_length=200)),
                ('live', fields.BooleanField(default=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'mailboxes', 'app': 'mail', 'unique_together': (('tenant_id', 'live', 'address'),), 'indexes': [Index(fields=['tenant_id', 'live', 'domain'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
