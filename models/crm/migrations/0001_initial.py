from tortoise import migrations
from tortoise.migrations import operations as ops
from orjson import loads
from tortoise.fields.base import OnDelete
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='ActivityRecord',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.CharField(max_length=64)),
                ('user_id', fields.CharField(null=True, max_length=40)),
                ('kind', fields.CharField(max_length=64)),
                ('details', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'activity_records', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Contact',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('email_sealed', fields.TextField(null=True, unique=False)),
                ('email_index', fields.CharField(null=True, max_length=64)),
                ('phone_sealed', fields.TextField(null=True, unique=False)),
                ('phone_index', fields.CharField(null=True, max_length=64)),
                ('name_sealed', fields.TextField(null=True, unique=False)),
                ('external_id', fields.CharField(null=True, max_length=255)),
                ('attributes', fields.JSONField(default=dict, encoder=JSON_DUMPS, decoder=loads)),
                ('subscribed', fields.BooleanField(default=True)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
                ('anonymized_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'contacts', 'app': 'crm', 'unique_together': (('tenant', 'email_index'), ('tenant', 'phone_index'), ('tenant', 'external_id')), 'indexes': [Index(fields=['tenant', 'created_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ContactList',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('slug', fields.CharField(max_length=64)),
                ('name', fields.CharField(max_length=200)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'contact_lists', 'app': 'crm', 'unique_together': (('tenant', 'slug'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ListMember',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('list', fields.ForeignKeyField('crm.ContactList', source_field='list_id', db_constraint=True, to_field='id', related_name='members', on_delete=OnDelete.CASCADE)),
                ('contact', fields.ForeignKeyField('crm.Contact', source_field='contact_id', db_constraint=True, to_field='id', related_name='memberships', on_delete=OnDelete.CASCADE)),
                ('added_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'list_members', 'app': 'crm', 'unique_together': (('list', 'contact'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='OptOut',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('contact', fields.ForeignKeyField('crm.Contact', source_field='contact_id', db_constraint=True, to_field='id', related_name='opt_outs', on_delete=OnDelete.CASCADE)),
                ('channel', fields.CharField(max_length=16)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'opt_outs', 'app': 'crm', 'unique_together': (('contact', 'channel'),), 'pk_attr': 'id'},
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
            options={'table': 'outbox', 'app': 'crm', 'pk_attr': 'id'},
            bases=['OutboxBase'],
        ),
        ops.CreateModel(
            name='RetentionPolicy',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.CharField(unique=True, max_length=64)),
                ('days', fields.IntField(null=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_run_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('anonymized_total', fields.BigIntField(default=0)),
            ],
            options={'table': 'retention_policies', 'app': 'crm', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Segment',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('name', fields.CharField(max_length=200)),
                ('rules', fields.JSONField(encoder=JSON_DUMPS, decoder=loads)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'segments', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]

# Hand-written: segment rules on attributes use jsonb containment (@>), served by the GIN index;
# a contact's lists are found by contact_id.
Migration.operations += [
    ops.RunSQL("CREATE INDEX contacts_attributes_gin ON contacts USING gin (attributes jsonb_path_ops)",
               reverse_sql="DROP INDEX contacts_attributes_gin"),
    ops.RunSQL("CREATE INDEX contacts_tenant_id ON contacts (tenant, id)", reverse_sql="DROP INDEX contacts_tenant_id"),
    ops.RunSQL("CREATE INDEX list_members_contact ON list_members (contact_id)",
               reverse_sql="DROP INDEX list_members_contact"),
]
