"""The operator surface (issue 16): the staff allowlist, support-session markers (keyed by the
operator's identity session), the admin audit trail, the blocklist and its suggestions, and the
datacenter ASNs, the platform alert rules and their firings."""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

from models.platform.audit import new_audit_id
from models.platform.blocklist import new_block_id, new_suggestion_id
from models.platform.platform_alert import new_event_id, new_rule_id


class Migration(migrations.Migration):
    dependencies = [('platform', '0010_templates_reports')]

    initial = False

    operations = [
        ops.CreateModel(
            name='StaffMember',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('user_id', fields.CharField(null=True, unique=True, max_length=40)),
                ('email', fields.CharField(null=True, unique=True, max_length=320)),
                ('added_by', fields.CharField(default='', max_length=200)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'staff_members', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='SupportMarker',
            fields=[
                ('session_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('support', fields.ForeignKeyField('platform.SupportSession', source_field='support_id', db_constraint=True, to_field='id', related_name='markers', on_delete=OnDelete.CASCADE)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'support_markers', 'app': 'platform', 'pk_attr': 'session_id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='AdminAudit',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_audit_id, unique=True, max_length=40)),
                ('actor_id', fields.CharField(max_length=40)),
                ('actor_email', fields.CharField(default='', max_length=320)),
                ('action', fields.CharField(max_length=60)),
                ('target', fields.CharField(max_length=200)),
                ('change', fields.JSONField(default=dict)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'admin_audit', 'app': 'platform', 'indexes': [Index(fields=['target', 'id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='BlockEntry',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_block_id, unique=True, max_length=40)),
                ('kind', fields.CharField(max_length=10)),
                ('value', fields.CharField(max_length=320)),
                ('reason', fields.CharField(max_length=500)),
                ('created_by', fields.CharField(max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'block_entries', 'app': 'platform', 'unique_together': (('kind', 'value'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='BlockSuggestion',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_suggestion_id, unique=True, max_length=40)),
                ('kind', fields.CharField(max_length=10)),
                ('value', fields.CharField(max_length=320)),
                ('reason', fields.CharField(max_length=500)),
                ('source', fields.CharField(max_length=20)),
                ('evidence', fields.IntField(default=0)),
                ('state', fields.CharField(default='undecided', max_length=10)),
                ('decided_by', fields.CharField(null=True, max_length=40)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'block_suggestions', 'app': 'platform', 'unique_together': (('kind', 'value'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DatacenterAsn',
            fields=[
                ('asn', fields.BigIntField(generated=False, primary_key=True, unique=True, db_index=True)),
                ('name', fields.CharField(default='', max_length=200)),
                ('created_by', fields.CharField(max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'datacenter_asns', 'app': 'platform', 'pk_attr': 'asn'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PlatformAlertRule',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_rule_id, unique=True, max_length=40)),
                ('name', fields.CharField(max_length=200)),
                ('metric', fields.CharField(max_length=20)),
                ('channel', fields.CharField(null=True, max_length=10)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', null=True, db_constraint=True, to_field='id', related_name='platform_alert_rules', on_delete=OnDelete.CASCADE)),
                ('threshold', fields.FloatField()),
                ('window_minutes', fields.IntField()),
                ('firing', fields.BooleanField(default=False)),
                ('last_value', fields.FloatField(null=True)),
                ('last_evaluated_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_by', fields.CharField(max_length=40)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'platform_alert_rules', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PlatformAlertEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_event_id, unique=True, max_length=40)),
                ('rule', fields.ForeignKeyField('platform.PlatformAlertRule', source_field='rule_id', db_constraint=True, to_field='id', related_name='events', on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(max_length=10)),
                ('value', fields.FloatField()),
                ('threshold', fields.FloatField()),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('notified_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'platform_alert_events', 'app': 'platform', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
