"""Contact imports: a CSV file taken by ``POST /v1/importacoes`` and written into the account's
contacts by the ``crm_contact_imports.run`` actor, in parts of up to 5,000 rows (app/crm/contact_import).

The file holds PII, so it is kept sealed (AES-GCM, purpose ``contact-import:<tenant>``, like the
contacts themselves) until the import ends, then dropped. ``subscribed`` is the person's answer to
"did these people consent?": null until the import is started, and the import cannot start
without it (the contract's ``Subscribed`` defaults to true; an import must not subscribe everyone
by omission).

Progress is exact: each part is written and ``processed``, ``created``, ``updated``, ``failed`` and
``errors`` move in the same transaction, so after a crash the job says exactly which rows were
written (the first ``processed`` valid rows, in file order) and the retry resumes from there.
"""

from __future__ import annotations

from enum import StrEnum

from tortoise import fields
from tortoise.models import Model

from kit.ids import public_id
from kit.sealing import Sealer

SEALER = Sealer("crm")
PREFIX = "imp"
MAX_STORED_ERRORS = 1000  # the per-row errors kept on the job; the counts stay exact beyond it


class ImportState(StrEnum):
    ANALYZED = "analisada"      # uploaded and checked, waiting for the consent answer and the start
    QUEUED = "na_fila"          # started: the actor has not taken it yet
    RUNNING = "processando"
    DONE = "concluida"
    FAILED = "falhou"           # stopped after its retries: ``processed`` rows were written, the rest not


def new_import_id() -> str:
    return public_id(PREFIX)


def file_purpose(tenant: str) -> str:
    return f"contact-import:{tenant}"


class ContactImport(Model):
    id = fields.BigIntField(primary_key=True)
    public_id = fields.CharField(max_length=40, unique=True)
    tenant = fields.CharField(max_length=64)
    created_by = fields.CharField(max_length=64)
    file_name = fields.CharField(max_length=200, null=True)
    file_sealed = fields.TextField(null=True)  # dropped once the import has ended
    state = fields.CharEnumField(ImportState, max_length=16, default=ImportState.ANALYZED)
    subscribed = fields.BooleanField(null=True)
    columns: list = fields.JSONField(default=list)      # the header's columns as the file spells them
    ignored: list = fields.JSONField(default=list)      # columns that are not imported (export-only ones)
    rows = fields.IntField(default=0)                    # data rows in the file
    valid = fields.IntField(default=0)                   # rows that passed the checks of a contact write
    processed = fields.IntField(default=0)               # valid rows written so far, in file order
    created = fields.IntField(default=0)
    updated = fields.IntField(default=0)
    failed = fields.IntField(default=0)                  # invalid rows and rows the writes refused
    errors: list = fields.JSONField(default=list)       # [{linha, codigo, mensagem, detalhes}], at most MAX_STORED_ERRORS
    attempts = fields.IntField(default=0)
    last_error = fields.CharField(max_length=300, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)
    updated_at = fields.DatetimeField(auto_now=True)

    class Meta:
        table = "contact_imports"
        app = "crm"
        indexes = (("tenant", "id"),)
        table_description = "CSV imports of contacts: the sealed file, the consent answer and exact progress."

    def open_file(self) -> str:
        return SEALER.unseal_text(file_purpose(self.tenant), self.file_sealed).decode()


def seal_file(tenant: str, text: str) -> str:
    return SEALER.seal_text(file_purpose(tenant), text.encode())
