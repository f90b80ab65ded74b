"""Contact imports (models/crm/contact_import.py: ContactImport)."""

from tortoise import migrations
from tortoise.migrations import operations as ops
from models.crm.contact_import import ImportState
from orjson import loads
from tortoise.fields.data import JSON_DUMPS
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('crm', '0005_outbox_request_id')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ContactImport',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('public_id', fields.CharField(unique=True, max_length=40)),
                ('tenant', fields.CharField(max_length=64)),
                ('created_by', fields.CharField(max_length=64)),
                ('file_name', fields.CharField(null=True, max_length=200)),
                ('file_sealed', fields.TextField(null=True, unique=False)),
                ('state', fields.CharEnumField(default=ImportState.ANALYZED, description='ANALYZED: analisada\nQUEUED: na_fila\nRUNNING: processando\nDONE: concluida\nFAILED: falhou', enum_type=ImportState, max_length=16)),
                ('subscribed', fields.BooleanField(null=True)),
                ('columns', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('ignored', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('rows', fields.IntField(default=0)),
                ('valid', fields.IntField(default=0)),
                ('processed', fields.IntField(default=0)),
                ('created', fields.IntField(default=0)),
                ('updated', fields.IntField(default=0)),
                ('failed', fields.IntField(default=0)),
                ('errors', fields.JSONField(default=list, encoder=JSON_DUMPS, decoder=loads)),
                ('attempts', fields.IntField(default=0)),
                ('last_error', fields.CharField(null=True, max_length=300)),
                ('created_at', fields.DatetimeField(auto_now=False, auto_now_add=True)),
                ('started_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'contact_imports', 'app': 'crm', 'indexes': [Index(fields=['tenant', 'id'])], 'pk_attr': 'id', 'table_description': 'CSV imports of contacts: the sealed file, the consent answer and exact progress.'},
            bases=['Model'],
        ),
    ]
