"""Form field patterns now run in RE2 (issue 38): list the stored ones RE2 cannot compile.

Until now pages checked a field's ``Pattern`` with Python's ``re``, so a form may hold a
backreference or a lookaround that RE2 refuses. Nothing is changed or deleted: each such field is
logged (form id, field name, the pattern and RE2's reason) for its account to be told, and the
runtime answers a submission to it with 422 "this field's pattern cannot be checked" until the
form is changed with ``PATCH /v1/formularios/{id}``. Migrating never fails on a pattern.
"""

from __future__ import annotations

import json
import logging

from tortoise import migrations
from tortoise.migrations import operations as ops

from kit import patterns

log = logging.getLogger("herald.migrations.pages")

BATCH = 500


def unsupported(fields_spec) -> list[tuple[str, str, str]]:
    """(field name, pattern, RE2's reason) of each field whose pattern RE2 refuses."""
    found = []
    for field in fields_spec if isinstance(fields_spec, list) else []:
        pattern = field.get("Pattern") if isinstance(field, dict) else None
        if pattern in (None, ""):
            continue
        try:
            patterns.compile(pattern)
        except patterns.UnsupportedPattern as exc:
            found.append((str(field.get("Name")), pattern, str(exc)))
    return found


async def report_unsupported(client) -> list[tuple[str, str]]:
    """Logs, and answers as (form id, field name), every stored field pattern RE2 refuses; reads
    the forms in batches by id so a large table is never held in memory at once."""
    reported: list[tuple[str, str]] = []
    last = 0
    while True:
        rows = await client.execute_query_dict(
            "SELECT id, public_id, fields FROM forms WHERE id > $1 AND fields::text LIKE '%\"Pattern\"%' "
            "ORDER BY id LIMIT $2", [last, BATCH])
        for row in rows:
            spec = json.loads(row["fields"]) if isinstance(row["fields"], (str, bytes)) else row["fields"]
            for name, pattern, reason in unsupported(spec):
                log.warning("form %s: field %r: pattern %r cannot run in RE2 (%s); its submissions are refused "
                            "with 422 until the form is changed", row["public_id"], name, pattern, reason)
                reported.append((row["public_id"], name))
        if len(rows) < BATCH:
            break
        last = rows[-1]["id"]
    if reported:
        log.warning("%d form field pattern(s) cannot run in RE2; listed above, nothing was changed", len(reported))
    return reported


async def list_unsupported_patterns(apps, schema_editor) -> None:
    await report_unsupported(schema_editor.client)


class Migration(migrations.Migration):
    dependencies = [('pages', '0001_pages')]

    initial = False

    operations = [
        ops.RunPython(list_unsupported_patterns, ops.RunPython.noop),
    ]
