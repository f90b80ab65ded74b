"""The issue's "Done when" over HTTP, with the CRM, the platform, the identity server, a worker
and schedulers running (the platform's relay from the session pipeline, the CRM's from this
module): 5,000 contacts imported, a segment's reach previewed, a journey that sends a welcome
e-mail and, two steps later, an SMS, turned on; a contact added to the entry list gets both (in
the sinks); opted out of SMS, the contact's next pass records the SMS step skipped. Then branches
on a condition, and quiet hours holding a send."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from datetime import datetime, timedelta, timezone

import pytest

from models.platform import Message
from tests.fixtures.harness import Process
from tests.fixtures.platform import make_account  # noqa: F401


@pytest.fixture(scope="module")
def crm_relay(services, tmp_path_factory):
    """A scheduler relaying the CRM's outbox (and running the journeys' jobs) and a worker on ``crm``."""
    log_dir = tmp_path_factory.mktemp("journey-crm")
    env = {**services.env, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "4"}
    roles = [Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir),
             Process("crm-scheduler", ["scheduler"], env, log_dir)]
    yield roles
    for role in roles:
        role.stop()


async def until(fetch, done, seconds: float, what: str, roles=()):
    deadline = time.monotonic() + seconds
    value = None
    while time.monotonic() < deadline:
        value = await fetch()
        if done(value):
            return value
        await asyncio.sleep(0.25)
    logs = "\n".join(role.log.read_text()[-3000:] for role in roles)
    raise AssertionError(f"not within {seconds} s: {what}; last: {value}\n{logs}")


async def enrollments(crm, acting, journey_id: str) -> list[dict]:
    answer = await crm.get(f"/v1/jornadas/{journey_id}/inscricoes", headers=acting.headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["inscricoes"]


def finished(count: int):
    return lambda items: len(items) >= count and all(i["estado"] in ("concluida", "falhou") for i in items)


async def in_sink(sink_dir, message_id: str, channel: str) -> dict:
    path = sink_dir / channel / f"{message_id}.json"

    async def read():
        return json.loads(path.read_text()) if path.exists() else None

    return await until(read, lambda value: value is not None, 30, f"{message_id} in the {channel} sink")


async def test_import_segment_journey_both_messages_then_sms_opt_out_skips(crm, act, make_account, platform, pipeline,  # noqa: F811
                                                                            crm_relay, services):
    account = await make_account()
    owner = await act("admin", tenant=account.tenant_id)
    tag = secrets.token_hex(3)

    started = time.monotonic()
    bulk = await crm.post("/v1/contatos/lote", headers=owner.headers, json={"contatos": [
        {"email": f"imp-{tag}-{i}@example.com", "atributos": {"plano": "pro" if i % 5 == 0 else "free"}}
        for i in range(5000)]})
    assert bulk.status_code == 200 and bulk.json()["criados"] == 5000, bulk.text[:500]
    assert time.monotonic() - started < 10
    preview = await crm.post("/v1/segmentos/previa", headers=owner.headers,
                             json={"regras": {"atributo": "plano", "op": "igual", "valor": "pro"}})
    assert preview.status_code == 200 and preview.json()["alcance"] == 1000, preview.text

    entry = (await crm.post("/v1/listas", headers=owner.headers, json={"nome": f"Entrada {tag}"})).json()["lista"]
    journey = (await crm.post("/v1/jornadas", headers=owner.headers, json={
        "nome": "Boas-vindas", "gatilho": {"tipo": "lista", "lista_id": entry["id"]}, "permite_reentrada": True,
        "modo": "teste",
        "passos": [{"id": "boas_vindas", "tipo": "enviar", "canal": "email", "de": "Equipe <oi@sandbox.herald.test>",
                    "assunto": "Bem-vinda", "texto": "Que bom ter você aqui"},
                   {"id": "pausa", "tipo": "esperar", "segundos": 1},
                   {"id": "lembrete", "tipo": "enviar", "canal": "sms", "texto": "Oi! Passando para lembrar."}]})
               ).json()["jornada"]
    on = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert on.status_code == 200, on.text

    phone = f"+1415555{secrets.randbelow(10**4):04d}"
    contact = (await crm.post("/v1/contatos", headers=owner.headers,
                              json={"email": f"ana-{tag}@example.com", "telefone": phone, "nome": "Ana"})).json()[
        "contato"]
    added = await crm.post(f"/v1/listas/{entry['id']}/membros", headers=owner.headers,
                           json={"contatos": [contact["id"]]})
    assert added.status_code == 200, added.text

    [first] = await until(lambda: enrollments(crm, owner, journey["id"]), finished(1), 60, "the journey ran",
                          crm_relay)
    assert first["estado"] == "concluida" and first["contato_id"] == contact["id"], first
    steps = {step["passo_id"]: step for step in first["historico"]}
    assert [s["passo_id"] for s in first["historico"]] == ["boas_vindas", "pausa", "lembrete"]
    assert {s["resultado"] for s in first["historico"]} == {"concluido"}, first["historico"]
    [email_id] = steps["boas_vindas"]["detalhes"]["mensagens"]
    [sms_id] = steps["lembrete"]["detalhes"]["mensagens"]
    mail = await in_sink(services.sink_dir, email_id, "email")
    text = await in_sink(services.sink_dir, sms_id, "sms")
    assert f"ana-{tag}@example.com" in json.dumps(mail) and phone in json.dumps(text)
    rows = {row.public_id: row for row in await Message.filter(public_id__in=[email_id, sms_id])}
    assert {row.mode for row in rows.values()} == {"test"}
    assert rows[email_id].idempotency_key == f"crm-jrn:{first['id']}:boas_vindas"

    # Opted out of SMS: the next pass sends the e-mail and records the SMS step skipped.
    out = await crm.put(f"/v1/contatos/{contact['id']}/consentimento", headers=owner.headers,
                        json={"recebe": False, "canal": "sms"})
    assert out.status_code == 200, out.text
    await crm.delete(f"/v1/listas/{entry['id']}/membros/{contact['id']}", headers=owner.headers)
    await crm.post(f"/v1/listas/{entry['id']}/membros", headers=owner.headers, json={"contatos": [contact["id"]]})
    both = await until(lambda: enrollments(crm, owner, journey["id"]), finished(2), 60, "the second pass",
                       crm_relay)
    second = next(item for item in both if item["id"] != first["id"])
    outcomes = [(s["passo_id"], s["resultado"]) for s in second["historico"]]
    assert outcomes == [("boas_vindas", "concluido"), ("pausa", "concluido"), ("lembrete", "ignorado")], outcomes
    assert "sms" in second["historico"][2]["motivo"] and second["historico"][2]["detalhes"] == {}
    assert await Message.filter(channel="sms", recipient=phone).count() == 1


async def test_a_condition_branches_and_quiet_hours_hold_a_send(crm, act, make_account, platform, pipeline,  # noqa: F811
                                                                crm_relay):
    account = await make_account()
    owner = await act("admin", tenant=account.tenant_id)
    branching = (await crm.post("/v1/jornadas", headers=owner.headers, json={
        "nome": "Ramo", "gatilho": {"tipo": "evento", "nome": "compra"},
        "passos": [{"id": "vip", "tipo": "condicao", "regra": {"atributo": "vip", "op": "igual", "valor": True},
                    "se_sim": "sms_vip"},
                   {"id": "comum", "tipo": "enviar", "canal": "email", "de": "oi@sandbox.herald.test",
                    "assunto": "Obrigado", "texto": "Valeu"},
                   {"id": "fim", "tipo": "sair"},
                   {"id": "sms_vip", "tipo": "enviar", "canal": "sms", "texto": "Obrigado, VIP"}]})).json()["jornada"]
    assert (await crm.put(f"/v1/jornadas/{branching['id']}/ativa", headers=owner.headers,
                          json={"ativa": True})).status_code == 200
    tag = secrets.token_hex(3)
    vip = await crm.post("/v1/contatos", headers=owner.headers, json={
        "email": f"vip-{tag}@example.com", "telefone": f"+1415556{secrets.randbelow(10**4):04d}",
        "atributos": {"vip": True}})
    plain = await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"plain-{tag}@example.com"})
    for made in (vip, plain):
        assert (await crm.post("/v1/eventos", headers=owner.headers, json={
            "contato_id": made.json()["contato"]["id"], "nome": "compra"})).status_code == 201
    done = await until(lambda: enrollments(crm, owner, branching["id"]), finished(2), 60, "both branches", crm_relay)
    paths = {item["contato_id"]: [(s["passo_id"], s["resultado"]) for s in item["historico"]] for item in done}
    assert paths[vip.json()["contato"]["id"]] == [("vip", "concluido"), ("sms_vip", "concluido")]
    assert paths[plain.json()["contato"]["id"]] == [("vip", "concluido"), ("comum", "concluido"), ("fim", "concluido")]

    now = datetime.now(timezone.utc)
    window = {"inicio": (now - timedelta(hours=1)).strftime("%H:%M"), "fim": (now + timedelta(hours=1)).strftime("%H:%M")}
    quiet = (await crm.post("/v1/jornadas", headers=owner.headers, json={
        "nome": "Silêncio", "gatilho": {"tipo": "evento", "nome": "noturno"}, "horario_silencioso": window,
        "fuso_horario": "UTC",
        "passos": [{"id": "aviso", "tipo": "enviar", "canal": "email", "de": "oi@sandbox.herald.test",
                    "assunto": "Tarde", "texto": "Amanhã"}]})).json()["jornada"]
    assert (await crm.put(f"/v1/jornadas/{quiet['id']}/ativa", headers=owner.headers,
                          json={"ativa": True})).status_code == 200
    await crm.post("/v1/eventos", headers=owner.headers, json={"contato_id": plain.json()["contato"]["id"],
                                                              "nome": "noturno"})
    [held] = await until(lambda: enrollments(crm, owner, quiet["id"]),
                         lambda items: len(items) == 1 and items[0]["estado"] == "aguardando", 30, "held", crm_relay)
    assert held["passo_atual"] == "aviso" and held["historico"] == [] and held["motivo"] == "quiet hours"
    until_at = datetime.fromisoformat(held["aguardando_ate"].replace("Z", "+00:00"))
    assert timedelta(minutes=58) < until_at - now <= timedelta(hours=1, minutes=1)
