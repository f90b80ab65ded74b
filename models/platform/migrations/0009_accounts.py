"""Accounts on the dashboard (issue 15): memberships, invitations, the dashboard's idempotency
records, feature flags, domain claims and access requests, support sessions (the trail read at
/api/tenants/{id}/impersonations), and an index on ``tenants (parent_id)`` for walking the tree
downward (the subtree of a quota change, the children of a tenant)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from models.platform.invitation import new_invitation_id
from models.platform.registration import new_access_request_id
from models.platform.support_session import new_support_session_id
from tortoise.fields.base import OnDelete
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('platform', '0008_read_indexes')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AccessRequest',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_access_request_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='access_requests', on_delete=OnDelete.CASCADE)),
                ('user_id', fields.CharField(max_length=40)),
                ('email', fields.CharField(max_length=320)),
                ('status', fields.CharField(default='pending', max_length=10)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'access_requests', 'app': 'platform', 'unique_together': (('tenant', 'user_id'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ApiIdempotencyRecord',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('caller', fields.CharField(max_length=80)),
                ('key', fields.CharField(max_length=140)),
                ('method', fields.CharField(max_length=10)),
                ('path', fields.CharField(max_length=500)),
                ('body_hash', fields.CharField(max_length=64)),
                ('status', fields.IntField(null=True)),
                ('content_type', fields.CharField(null=True, max_length=100)),
                ('body', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'api_idempotency_records', 'app': 'platform', 'unique_together': (('caller', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DomainClaim',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='domain_claims', on_delete=OnDelete.CASCADE)),
                ('domain', fields.CharField(unique=True, max_length=253)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'domain_claims', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Invitation',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_invitation_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='invitations', on_delete=OnDelete.CASCADE)),
                ('email', fields.CharField(max_length=320)),
                ('role', fields.CharField(max_length=10)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('status', fields.CharField(default='pending', max_length=10)),
                ('invited_by', fields.CharField(max_length=40)),
                ('accepted_by', fields.CharField(null=True, max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'invitations', 'app': 'platform', 'indexes': [Index(fields=['email', 'status']), Index(fields=['tenant_id', 'status', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Membership',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='memberships', on_delete=OnDelete.CASCADE)),
                ('user_id', fields.CharField(db_index=True, max_length=40)),
                ('role', fields.CharField(max_length=10)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'memberships', 'app': 'platform', 'unique_together': (('tenant', 'user_id'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SupportSession',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_support_session_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='support_sessions', on_delete=OnDelete.CASCADE)),
                ('operator_id', fields.CharField(max_length=40)),
                ('operator_email', fields.CharField(max_length=320)),
                ('reason', fields.CharField(max_length=500)),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('ended_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'support_sessions', 'app': 'platform', 'indexes': [Index(fields=['tenant_id', 'started_at'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TenantFlag',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='flags', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=64)),
                ('enabled', fields.BooleanField()),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'tenant_flags', 'app': 'platform', 'unique_together': (('tenant', 'name'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.RunSQL(["CREATE INDEX IF NOT EXISTS tenants_parent ON tenants (parent_id)"],
                   reverse_sql=["DROP INDEX IF EXISTS tenants_parent"]),
    ]
