"""The CSV export (contract F, rule 3): every contact of the account with its PII opened, an
activity record committed before the first byte, and no export at all when that write fails."""

from __future__ import annotations

import asyncio
import csv
import io
import secrets

from tortoise.transactions import in_transaction

from models.crm import ActivityRecord


async def test_export_streams_the_accounts_contacts_after_recording_it(crm, act):
    owner = await act("admin")
    outsider = await act("admin")
    tag = secrets.token_hex(3)
    items = [{"email": f"e{i}-{tag}@example.com", "nome": f"Nome, \"{i}\"", "atributos": {"i": i}}
             for i in range(1205)]  # more than one batch of the stream
    assert (await crm.post("/v1/contatos/lote", headers=owner.headers, json={"contatos": items})).status_code == 200
    await crm.post("/v1/contatos", headers=outsider.headers, json={"email": f"theirs-{tag}@example.com"})

    answer = await crm.get("/v1/contatos/exportar.csv", headers=owner.headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["x-request-id"].startswith("req_")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert len(rows) == 1205
    by_email = {row["email"]: row for row in rows}
    assert by_email[f"e7-{tag}@example.com"]["nome"] == 'Nome, "7"'
    assert by_email[f"e7-{tag}@example.com"]["atributos"] == '{"i":7}'
    assert by_email[f"e7-{tag}@example.com"]["inscrito"] == "true"
    assert not any("theirs" in row["email"] for row in rows)

    records = await ActivityRecord.filter(tenant=owner.tenant, kind="contatos.exportados")
    assert [record.user_id for record in records] == [owner.person.id]


async def test_no_activity_record_no_export(crm, act):
    owner = await act("admin")
    await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"x-{secrets.token_hex(3)}@example.com"})
    locked, release = asyncio.Event(), asyncio.Event()

    async def hold_the_table() -> None:
        async with in_transaction("crm") as conn:
            await conn.execute_query("LOCK TABLE activity_records IN ACCESS EXCLUSIVE MODE")
            locked.set()
            await release.wait()

    holder = asyncio.create_task(hold_the_table())
    await locked.wait()
    try:
        refused = await crm.get("/v1/contatos/exportar.csv", headers=owner.headers)
    finally:
        release.set()
        await holder
    assert refused.status_code == 503, refused.text
    assert refused.headers["content-type"].startswith("application/json")
    assert "email" not in refused.text and "@" not in refused.text
    assert await ActivityRecord.filter(tenant=owner.tenant).count() == 0


async def test_export_needs_the_admin_role(crm, act):
    owner = await act("admin")
    editor = await act("editor", tenant=owner.tenant)
    assert (await crm.get("/v1/contatos/exportar.csv", headers=editor.headers)).status_code == 403
