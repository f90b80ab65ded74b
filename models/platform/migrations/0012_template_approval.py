"""WhatsApp template approval (issue 18): what the provider said about a template.

``provider_template_id`` (the WhatsApp Cloud API's template id, once submitted), ``submitted_at``
(the last submission; NULL: not yet submitted), ``checked_at`` (the last status read),
``status_reason`` (why it was rejected, or why it is still waiting: no provider configured, a
refused submission). A partial index serves the sync job's scan of pending WhatsApp templates.
"""

from tortoise import fields, migrations
from tortoise.migrations import operations as ops


class Migration(migrations.Migration):
    dependencies = [('platform', '0011_operator')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Template',
            name='provider_template_id',
            field=fields.CharField(null=True, max_length=64),
        ),
        ops.AddField(
            model_name='Template',
            name='submitted_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Template',
            name='checked_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Template',
            name='status_reason',
            field=fields.TextField(null=True),
        ),
        ops.RunSQL(
            "CREATE INDEX templates_whatsapp_pending ON templates (checked_at NULLS FIRST, id) "
            "WHERE channel = 'whatsapp' AND status = 'pending'",
            reverse_sql="DROP INDEX templates_whatsapp_pending",
        ),
    ]
