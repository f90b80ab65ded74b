"""The CSV export (contract F, rule 3): every contact of the account with its PII opened, an
activity record committed before the first byte, and no export at all when that write fails."""

from __future__ import annotations

import asyncio
import csv
import io
import json
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


# -- formulas (OWASP, CSV injection) and the export -> import round trip ---------------------------------

TRICKY_NAMES = ['=HYPERLINK("http://x")', "+1 bonus", "-10", "@SUM(A1)", "'quoted", "''twice", "'=guarded",
                "=cmd|' /C calc'!A0", "plain, with a comma", "O'Brien"]


def test_neutralize_and_restore_are_inverse():
    from app.http.csv_cells import neutralize, restore

    assert neutralize('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert neutralize("+5511999999999", typed=True) == "+5511999999999"
    assert neutralize("\tx") == "'\tx" and neutralize("\rx") == "'\rx"
    assert neutralize("ana@example.com") == "ana@example.com" and neutralize("") == ""
    for value in [*TRICKY_NAMES, "\t=x", "'", "''", "'\t", "a'b", "-", "@"]:
        assert restore(neutralize(value)) == value, value
    assert restore("'plain") == "'plain" and restore(None) is None and restore(5) == 5


async def test_export_neutralizes_formulas_and_keeps_typed_values(crm, act):
    owner = await act("admin")
    tag = secrets.token_hex(3)
    made = await crm.post("/v1/contatos", headers=owner.headers, json={
        "email": f"ana-{tag}@example.com", "telefone": "+5511999999999", "nome": '=HYPERLINK("http://x")',
        "id_externo": "-42", "atributos": {"nota": "=1+1"}})
    assert made.status_code == 201, made.text

    answer = await crm.get("/v1/contatos/exportar.csv", headers=owner.headers)
    assert answer.status_code == 200, answer.text
    lines = answer.text.splitlines()
    assert len(lines) == 2
    # Every cell quoted, so no separator inside a value can open a cell that escapes the guard.
    assert all(line.startswith('"') and line.endswith('"') for line in lines)
    assert '"\'=HYPERLINK(""http://x"")"' in lines[1]
    [row] = list(csv.DictReader(io.StringIO(answer.text)))
    assert row["nome"] == '\'=HYPERLINK("http://x")'
    assert row["id_externo"] == "'-42"
    assert row["telefone"] == "+5511999999999"
    assert row["email"] == f"ana-{tag}@example.com"
    assert row["atributos"] == '{"nota":"=1+1"}'  # one JSON cell, beginning with "{"
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for name, cell in row.items()
                   if name != "telefone")


def _import_item(row: dict[str, str]) -> dict:
    """What an import takes from one exported line (empty cells are absent fields)."""
    item = {name: row[name] for name in ("email", "telefone", "id_externo", "nome") if row[name]}
    return {**item, "inscrito": row["inscrito"] == "true", "atributos": json.loads(row["atributos"])}


def _counts(answer) -> tuple:
    body = answer.json()
    return body.get("criados"), body.get("atualizados"), body.get("erros")


async def _contacts(crm, who) -> dict[str, dict]:
    listed = await crm.get("/v1/contatos", headers=who.headers, params={"limit": 200})
    assert listed.status_code == 200, listed.text
    keep = ("email", "telefone", "id_externo", "nome", "inscrito", "atributos")
    return {item["email"]: {name: item[name] for name in keep} for item in listed.json()["contatos"]}


async def test_export_then_import_keeps_every_contact_exactly(crm, act):
    source, target = await act("admin"), await act("admin")
    tag = secrets.token_hex(3)
    items = [{"email": f"c{i}-{tag}@example.com", "nome": name, "id_externo": f"{name[:1]}x{i}-{tag}",
              "atributos": {"texto": name, "n": i}, "inscrito": i % 2 == 0}
             for i, name in enumerate(TRICKY_NAMES)]
    items.append({"email": f"'=quoted-{tag}@example.com", "telefone": "+5511999999999", "nome": "Ana"})
    items.append({"email": f"+tag-{tag}@example.com", "id_externo": f"@handle-{tag}"})
    for item in items:  # one by one: a single write keeps a leading "'" as typed (only an import unguards)
        assert (await crm.post("/v1/contatos", headers=source.headers, json=item)).status_code == 201

    exported = await crm.get("/v1/contatos/exportar.csv", headers=source.headers)
    assert exported.status_code == 200, exported.text
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert len(rows) == len(items)
    imported = await crm.post("/v1/contatos/lote", headers=target.headers,
                              json={"contatos": [_import_item(row) for row in rows]})
    assert _counts(imported) == (len(items), 0, []), imported.text

    before, after = await _contacts(crm, source), await _contacts(crm, target)
    assert len(before) == len(items)
    assert after == before
    assert before[f"c0-{tag}@example.com"]["nome"] == '=HYPERLINK("http://x")'
    assert before[f"c5-{tag}@example.com"]["nome"] == "''twice"
    assert before[f"'=quoted-{tag}@example.com"]["telefone"] == "+5511999999999"

    # Imported again into the account it came from: every contact found and left as it was.
    again = await crm.post("/v1/contatos/lote", headers=source.headers,
                           json={"contatos": [_import_item(row) for row in rows]})
    assert _counts(again) == (0, len(items), []), again.text
    assert await _contacts(crm, source) == before
