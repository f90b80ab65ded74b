"""Templates and report rollups (issue 18).

- ``templates``: an account's templates, unique by (account, slug); the WhatsApp templates of
  ``whatsapp_templates`` are copied in (channel ``whatsapp``, their approval state kept, the body
  as ``text``) and that table dropped: one store of templates for every channel.
- ``messages.template``: the slug a message was rendered from (reports count by template);
  adding a nullable column rewrites nothing.
- ``report_counters`` and ``report_daily_counters``: counters per account, mode, hour (or day),
  channel, status and template (models/platform/report.py), written in the transaction of each
  message transition.
"""

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops

from models.platform.template import new_template_id

COPY_WHATSAPP = """
INSERT INTO templates (public_id, tenant_id, slug, channel, name, subject, text, html, language, status,
                       created_at, updated_at)
SELECT 'tpl_' || substr(md5(gen_random_uuid()::text), 1, 24), tenant_id, slug, 'whatsapp', slug, NULL, body, NULL,
       language, status, created_at, created_at
FROM whatsapp_templates
ON CONFLICT (tenant_id, slug) DO NOTHING
"""


class Migration(migrations.Migration):
    dependencies = [('platform', '0009_accounts')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Template',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(default=new_template_id, unique=True, max_length=40)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='templates', on_delete=OnDelete.CASCADE)),
                ('slug', fields.CharField(max_length=100)),
                ('channel', fields.CharField(max_length=10)),
                ('name', fields.CharField(default='', max_length=200)),
                ('subject', fields.TextField(null=True, unique=False)),
                ('text', fields.TextField(null=True, unique=False)),
                ('html', fields.TextField(null=True, unique=False)),
                ('language', fields.CharField(default='en', max_length=10)),
                ('status', fields.CharField(default='active', max_length=10)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'templates', 'app': 'platform', 'unique_together': (('tenant', 'slug'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ReportCounter',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='report_counters', on_delete=OnDelete.CASCADE)),
                ('mode', fields.CharField(max_length=4)),
                ('hour', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('channel', fields.CharField(max_length=10)),
                ('status', fields.CharField(max_length=12)),
                ('template', fields.CharField(default='', max_length=100)),
                ('count', fields.BigIntField(default=0)),
            ],
            options={'table': 'report_counters', 'app': 'platform',
                     'unique_together': (('tenant', 'mode', 'hour', 'channel', 'status', 'template'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ReportDailyCounter',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('tenant', fields.ForeignKeyField('platform.Tenant', source_field='tenant_id', db_constraint=True, to_field='id', related_name='report_daily_counters', on_delete=OnDelete.CASCADE)),
                ('mode', fields.CharField(max_length=4)),
                ('day', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('channel', fields.CharField(max_length=10)),
                ('status', fields.CharField(max_length=12)),
                ('template', fields.CharField(default='', max_length=100)),
                ('count', fields.BigIntField(default=0)),
            ],
            options={'table': 'report_daily_counters', 'app': 'platform',
                     'unique_together': (('tenant', 'mode', 'day', 'channel', 'status', 'template'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='Message',
            name='template',
            field=fields.CharField(null=True, max_length=100),
        ),
        ops.RunSQL(COPY_WHATSAPP, reverse_sql=ops.RunSQL.noop),
        ops.DeleteModel(name='WhatsappTemplate'),
    ]
