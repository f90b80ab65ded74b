"""Contact imports (app/crm/contact_import): a CSV taken and checked row by row, started with the
consent answer (no default), written by a real worker relayed from the CRM's outbox in parts of up
to 5,000, with exact counts and per-row errors; the refusals of a file; resuming a failed import."""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest

from models.crm import Contact, ContactImport, ImportState
from tests.fixtures.harness import Process


@pytest.fixture(scope="module")
def crm_pipeline(services, tmp_path_factory):
    log_dir = tmp_path_factory.mktemp("crm-imports")
    env = {**services.env, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "2"}
    roles = [Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir),
             Process("crm-scheduler", ["scheduler"], env, log_dir)]
    yield roles
    for role in roles:
        role.stop()


def upload(crm, acting, text: str | bytes, name: str = "contacts.csv"):
    data = text.encode() if isinstance(text, str) else text
    return crm.post("/v1/importacoes", headers=acting.headers, files={"arquivo": (name, data, "text/csv")})


async def finished(crm, acting, import_id: str, pipeline, seconds: float = 90) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = (await crm.get(f"/v1/importacoes/{import_id}", headers=acting.headers)).json()["importacao"]
        if job["estado"] in ("concluida", "falhou"):
            return job
        await asyncio.sleep(0.3)
    logs = "\n".join(role.log.read_text()[-2000:] for role in pipeline)
    raise AssertionError(f"import not finished within {seconds} s:\n{logs}")


async def test_an_import_is_checked_started_with_consent_and_written_exactly(crm, act, crm_pipeline):
    owner = await act("editor")
    tag = secrets.token_hex(3)
    existing = (await crm.post("/v1/contatos", headers=owner.headers,
                               json={"email": f"old-{tag}@example.com", "nome": "Before"})).json()["contato"]
    text = ("email;nome;plano;inscrito\n"
            f"a-{tag}@example.com;Ana;ouro;true\n"
            f"not-an-email;Bruno;prata;\n"
            "\n"
            f"OLD-{tag}@example.com;After;;\n"
            f";Sem identificador;bronze;\n"
            f"c-{tag}@example.com;Caio;;;extra\n"
            f"d-{tag}@example.com;Duda;;\n")
    made = await upload(crm, owner, text)
    assert made.status_code == 201, made.text
    job = made.json()["importacao"]
    assert job["estado"] == "analisada" and job["inscrito"] is None
    assert (job["linhas"], job["validas"], job["invalidas"], job["processadas"]) == (6, 3, 3, 0)
    assert job["colunas_ignoradas"] == ["inscrito"]
    assert [(error["linha"], error["codigo"]) for error in job["erros"]] == [
        (3, "ValidationError"), (6, "ValidationError"), (7, "ValidationError")]
    assert "e-mail" in job["erros"][0]["mensagem"]
    assert [row["linha"] for row in job["amostra"]] == [2, 5, 8]
    assert job["amostra"][0] == {"linha": 2, "email": f"a-{tag}@example.com", "nome": "Ana",
                                 "atributos": {"plano": "ouro"}}

    # No default for consent: a start without the answer is refused, and nothing is written.
    refused = await crm.post(f"/v1/importacoes/{job['id']}/iniciar", headers=owner.headers, json={})
    assert refused.status_code in (400, 422) and "inscrito" in refused.json()["Error"]["Details"]
    started = await crm.post(f"/v1/importacoes/{job['id']}/iniciar", headers=owner.headers,
                             json={"inscrito": False})
    assert started.status_code == 202, started.text
    again = await crm.post(f"/v1/importacoes/{job['id']}/iniciar", headers=owner.headers, json={"inscrito": False})
    assert again.status_code == 409

    done = await finished(crm, owner, job["id"], crm_pipeline)
    assert done["estado"] == "concluida", done
    assert (done["processadas"], done["criados"], done["atualizados"], done["falhas"]) == (3, 2, 1, 3)
    assert done["criados"] + done["atualizados"] + done["falhas"] == done["linhas"]
    listed = (await crm.get("/v1/contatos", headers=owner.headers, params={"q": f"a-{tag}@example.com"})).json()
    [ana] = listed["contatos"]
    assert (ana["nome"], ana["inscrito"], ana["atributos"]) == ("Ana", False, {"plano": "ouro"})
    updated = (await crm.get(f"/v1/contatos/{existing['id']}", headers=owner.headers)).json()["contato"]
    assert (updated["nome"], updated["inscrito"]) == ("After", False)
    row = await ContactImport.get(public_id=job["id"])
    assert row.file_sealed is None  # the file (PII) is dropped once the import has ended


async def test_a_failed_import_resumes_after_the_rows_it_wrote(crm, act, crm_pipeline):
    owner = await act("editor")
    tag = secrets.token_hex(3)
    text = "email\n" + "".join(f"r{n}-{tag}@example.com\n" for n in range(4))
    job = (await upload(crm, owner, text)).json()["importacao"]
    # As a run that wrote the first two rows and then gave up would leave it (the counts say so).
    await ContactImport.filter(public_id=job["id"]).update(state=ImportState.FAILED, subscribed=True, processed=2,
                                                           created=2, attempts=5, last_error="OperationalError")
    assert (await crm.post(f"/v1/importacoes/{job['id']}/iniciar", headers=owner.headers,
                           json={"inscrito": False})).status_code == 409  # resumed with the same answer only
    resumed = await crm.post(f"/v1/importacoes/{job['id']}/iniciar", headers=owner.headers, json={"inscrito": True})
    assert resumed.status_code == 202, resumed.text
    done = await finished(crm, owner, job["id"], crm_pipeline)
    assert (done["estado"], done["processadas"], done["criados"]) == ("concluida", 4, 4)
    written = await Contact.filter(tenant=owner.tenant).count()
    assert written == 2  # rows 3 and 4 only: the first two were not written again (nor made here)


@pytest.mark.parametrize("text, reason", [
    (b"", "empty"),
    (b"email\n", "no rows"),
    ("email,nome\nzo\xe9@example.com,Zo\xe9\n".encode("latin-1"), "UTF-8"),
    (b"nome,plano\nAna,ouro\n", "email, telefone or id_externo"),
    (("email," + ",".join(f"c{n}" for n in range(120)) + "\n").encode(), "columns"),
    (b"email,Email\nx@example.com,y@example.com\n", "repeats"),
])
async def test_a_file_is_refused_whole_saying_why(crm, act, text, reason):
    owner = await act("editor")
    answer = await upload(crm, owner, text)
    assert answer.status_code == 422, answer.text
    assert reason in answer.json()["Error"]["Message"]


async def test_the_file_is_required_and_access_is_checked(crm, act):
    owner = await act("editor")
    missing = await crm.post("/v1/importacoes", headers=owner.headers, data={"nome": "x"})
    assert missing.status_code in (400, 422) and missing.json()["Error"]["Details"] == {"arquivo": "required"}
    reader = await act("leitor", tenant=owner.tenant)
    assert (await upload(crm, reader, "email\na@example.com\n")).status_code == 403
    job = (await upload(crm, owner, "email\na@example.com\n")).json()["importacao"]
    stranger = await act("editor")
    assert (await crm.get(f"/v1/importacoes/{job['id']}", headers=stranger.headers)).status_code == 404
    assert (await crm.get(f"/v1/importacoes/{job['id']}", headers=reader.headers)).status_code == 200
    listed = (await crm.get("/v1/importacoes", headers=owner.headers)).json()["importacoes"]
    assert [item["id"] for item in listed] == [job["id"]]
