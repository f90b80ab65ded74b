"""Journeys over HTTP without workers: create, read, edit, delete, turning on (revalidated: 422
listing every problem) and off (never refused), enrollments by trigger, one per contact unless
re-entry is allowed, and quiet hours as a pure rule."""

from __future__ import annotations

import secrets
from datetime import datetime, timezone

from models.crm import Enrollment, OutboxEntry
from tasks.crm.journeys import idempotency_key, quiet_until


def welcome(list_id: str | None = None, **extra):
    return {"nome": "Boas-vindas", "gatilho": {"tipo": "lista", "lista_id": list_id} if list_id else None,
            "passos": [{"id": "email", "tipo": "enviar", "canal": "email", "de": "oi@sandbox.herald.test",
                        "assunto": "Oi", "texto": "Bem-vinda"},
                       {"id": "espera", "tipo": "esperar", "segundos": 60},
                       {"id": "sms", "tipo": "enviar", "canal": "sms", "texto": "Oi de novo"}], **extra}


async def new_list(crm, acting) -> str:
    made = await crm.post("/v1/listas", headers=acting.headers, json={"nome": f"Lista {secrets.token_hex(3)}"})
    assert made.status_code == 201, made.text
    return made.json()["lista"]["id"]


async def test_create_read_edit_delete_and_the_reasons_a_journey_cannot_be_turned_on(crm, act):
    owner = await act("admin")
    draft = await crm.post("/v1/jornadas", headers=owner.headers, json={"nome": "Rascunho"})
    assert draft.status_code == 201, draft.text
    journey = draft.json()["jornada"]
    assert journey["ativa"] is False and journey["modo"] == "teste" and journey["id"].startswith("jrn_")
    assert {p["campo"] for p in journey["problemas"]} == {"gatilho", "passos"}
    refused = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert refused.status_code == 422, refused.text
    assert set(refused.json()["Error"]["Details"]) == {"gatilho", "passos"}

    edited = await crm.patch(f"/v1/jornadas/{journey['id']}", headers=owner.headers, json={
        "gatilho": {"tipo": "lista", "lista_id": "lst_0000"},
        "passos": [{"tipo": "enviar", "canal": "email", "texto": "sem assunto"},
                   {"tipo": "condicao", "regra": {"atributo": "plano", "op": "igual", "valor": "pro"},
                    "se_sim": "passo_1"},
                   {"tipo": "condicao", "regra": {"lista": "lst_ffff"}}]})
    assert edited.status_code == 200, edited.text
    problems = {p["campo"] for p in edited.json()["jornada"]["problemas"]}
    assert problems == {"gatilho.lista_id", "passos[0].texto", "passos[0].de", "passos[1].se_sim",
                        "passos[2].regra"}
    assert [s["id"] for s in edited.json()["jornada"]["passos"]] == ["passo_1", "passo_2", "passo_3"]
    refused = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert refused.status_code == 422 and set(refused.json()["Error"]["Details"]) == problems

    list_id = await new_list(crm, owner)
    fixed = await crm.patch(f"/v1/jornadas/{journey['id']}", headers=owner.headers, json=welcome(list_id))
    assert fixed.status_code == 200 and fixed.json()["jornada"]["problemas"] == [], fixed.text
    on = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert on.status_code == 200 and on.json()["jornada"]["ativa"] is True and on.json()["jornada"]["ativada_em"]
    busy = await crm.patch(f"/v1/jornadas/{journey['id']}", headers=owner.headers, json={"passos": []})
    assert busy.status_code == 409, busy.text
    renamed = await crm.patch(f"/v1/jornadas/{journey['id']}", headers=owner.headers,
                              json={"nome": "Outra", "horario_silencioso": {"inicio": "22:00", "fim": "08:00"},
                                    "fuso_horario": "America/Sao_Paulo"})
    assert renamed.status_code == 200 and renamed.json()["jornada"]["nome"] == "Outra", renamed.text

    # The list goes away: turning off is never refused, turning on again is.
    assert (await crm.delete(f"/v1/listas/{list_id}", headers=owner.headers)).status_code == 204
    off = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": False})
    assert off.status_code == 200 and off.json()["jornada"]["ativa"] is False
    again = await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers, json={"ativa": True})
    assert again.status_code == 422 and "gatilho.lista_id" in again.json()["Error"]["Details"]

    listed = await crm.get("/v1/jornadas", headers=owner.headers)
    assert [j["id"] for j in listed.json()["jornadas"]] == [journey["id"]]
    outsider = await act("admin")
    for call in (crm.get(f"/v1/jornadas/{journey['id']}", headers=outsider.headers),
                 crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=outsider.headers, json={"ativa": False}),
                 crm.get(f"/v1/jornadas/{journey['id']}/inscricoes", headers=outsider.headers),
                 crm.delete(f"/v1/jornadas/{journey['id']}", headers=outsider.headers)):
        assert (await call).status_code == 404
    reader = await act("leitor", tenant=owner.tenant)
    assert (await crm.get(f"/v1/jornadas/{journey['id']}", headers=reader.headers)).status_code == 200
    assert (await crm.post("/v1/jornadas", headers=reader.headers, json={"nome": "x"})).status_code == 403
    assert (await crm.delete(f"/v1/jornadas/{journey['id']}", headers=owner.headers)).status_code == 204
    assert (await crm.get(f"/v1/jornadas/{journey['id']}", headers=owner.headers)).status_code == 404


async def test_malformed_journeys_are_refused_when_written(crm, admin):
    cases = [
        ({"nome": "x", "gatilho": {"tipo": "fax"}}, "gatilho.tipo"),
        ({"nome": "x", "gatilho": {"tipo": "evento"}}, "gatilho.nome"),
        ({"nome": "x", "gatilho": {"tipo": "lead", "extra": 1}}, "gatilho.extra"),
        ({"nome": "x", "passos": [{"tipo": "voar"}]}, "passos[0].tipo"),
        ({"nome": "x", "passos": [{"tipo": "esperar", "segundos": 0}]}, "passos[0].segundos"),
        ({"nome": "x", "passos": [{"tipo": "enviar", "canal": "fax"}]}, "passos[0].canal"),
        ({"nome": "x", "passos": [{"id": "a", "tipo": "sair"}, {"id": "a", "tipo": "sair"}]}, "passos[1].id"),
        ({"nome": "x", "passos": [{"tipo": "sair", "canal": "sms"}]}, "passos[0].canal"),
        ({"nome": "x", "fuso_horario": "Mars/Olympus"}, "fuso_horario"),
        ({"nome": "x", "horario_silencioso": {"inicio": "25:00", "fim": "08:00"}}, "horario_silencioso.inicio"),
    ]
    for body, field in cases:
        answer = await crm.post("/v1/jornadas", headers=admin.headers, json=body)
        assert answer.status_code == 422 and field in answer.json()["Error"]["Details"], (body, answer.text)
    assert (await crm.post("/v1/jornadas", headers=admin.headers, json={"nome": "x", "modo": "prod"})).status_code == 400
    assert (await crm.post("/v1/jornadas", headers=admin.headers, json={"nome": "x", "y": 1})).status_code == 400
    made = (await crm.post("/v1/jornadas", headers=admin.headers, json={"nome": "x"})).json()["jornada"]
    absent = await crm.put(f"/v1/jornadas/{made['id']}/ativa", headers=admin.headers, json={})
    assert absent.status_code in (400, 422)


async def test_triggers_enroll_once_per_contact_and_hand_the_job_to_the_outbox(crm, act):
    owner = await act("admin")
    list_id = await new_list(crm, owner)
    by_list = (await crm.post("/v1/jornadas", headers=owner.headers, json=welcome(list_id))).json()["jornada"]
    by_event = (await crm.post("/v1/jornadas", headers=owner.headers, json={
        **welcome(), "gatilho": {"tipo": "evento", "nome": "compra"}, "permite_reentrada": True})).json()["jornada"]
    for journey in (by_list, by_event):
        assert (await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers,
                              json={"ativa": True})).status_code == 200
    contact = (await crm.post("/v1/contatos", headers=owner.headers,
                              json={"email": f"j-{secrets.token_hex(3)}@example.com"})).json()["contato"]
    jobs_before = await OutboxEntry.filter(actor="crm_journeys.advance").count()
    for _ in range(2):
        added = await crm.post(f"/v1/listas/{list_id}/membros", headers=owner.headers,
                               json={"contatos": [contact["id"]]})
        assert added.status_code == 200, added.text
        await crm.delete(f"/v1/listas/{list_id}/membros/{contact['id']}", headers=owner.headers)
    enrolled = await crm.get(f"/v1/jornadas/{by_list['id']}/inscricoes", headers=owner.headers)
    assert enrolled.status_code == 200, enrolled.text
    [enrollment] = enrolled.json()["inscricoes"]
    assert enrollment["contato_id"] == contact["id"] and enrollment["estado"] in ("em_andamento", "concluida",
                                                                                   "aguardando", "falhou")

    for _ in range(2):
        assert (await crm.post("/v1/eventos", headers=owner.headers,
                               json={"contato_id": contact["id"], "nome": "compra"})).status_code == 201
    # Re-entry allowed, but never two unfinished enrollments at once.
    rows = await Enrollment.filter(journey__public_id=by_event["id"])
    assert len(rows) == 1 and rows[0].sequence == 1
    await Enrollment.filter(id=rows[0].id).update(state="concluida")
    again = await crm.post("/v1/eventos", headers=owner.headers, json={"contato_id": contact["id"], "nome": "compra"})
    assert sorted(e.sequence for e in await Enrollment.filter(journey__public_id=by_event["id"])) == [1, 2]
    # The new enrollment's job carries the request that caused it, for the worker's log (models/outbox.py).
    second = await Enrollment.get(journey__public_id=by_event["id"], sequence=2)
    job = await OutboxEntry.get(actor="crm_journeys.advance", args=[second.id])
    assert job.request_id == again.headers["X-Request-Id"] and job.request_id.startswith("req_")
    assert await OutboxEntry.filter(actor="crm_journeys.advance").count() >= jobs_before + 3

    filtered = await crm.get(f"/v1/jornadas/{by_event['id']}/inscricoes", headers=owner.headers,
                             params={"estado": "concluida"})
    assert [i["estado"] for i in filtered.json()["inscricoes"]] == ["concluida"]
    assert (await crm.get(f"/v1/jornadas/{by_event['id']}/inscricoes", headers=owner.headers,
                          params={"estado": "x"})).status_code == 422

    # The contact's own journeys (its page in the console), newest first; another account's contact is 404.
    mine = (await crm.get(f"/v1/contatos/{contact['id']}/jornadas", headers=owner.headers)).json()["inscricoes"]
    assert [(item["jornada_nome"], item["jornada_id"]) for item in mine] == [
        ("Boas-vindas", by_event["id"]), ("Boas-vindas", by_event["id"]), ("Boas-vindas", by_list["id"])]
    assert mine[1]["estado"] == "concluida" and mine[0]["entrou_em"]
    stranger = await act("admin")
    assert (await crm.get(f"/v1/contatos/{contact['id']}/jornadas", headers=stranger.headers)).status_code == 404


def test_quiet_hours_hold_a_send_until_the_window_ends():
    window = {"inicio": "22:00", "fim": "08:00"}
    late = datetime(2026, 3, 10, 23, 30, tzinfo=timezone.utc)  # 20:30 in Sao Paulo (UTC-3): outside
    assert quiet_until(late, "America/Sao_Paulo", window) is None
    night = datetime(2026, 3, 11, 2, 0, tzinfo=timezone.utc)  # 23:00 local: until 08:00 local next day
    assert quiet_until(night, "America/Sao_Paulo", window) == datetime(2026, 3, 11, 11, 0, tzinfo=timezone.utc)
    dawn = datetime(2026, 3, 11, 9, 0, tzinfo=timezone.utc)  # 06:00 local: until 08:00 the same day
    assert quiet_until(dawn, "America/Sao_Paulo", window) == datetime(2026, 3, 11, 11, 0, tzinfo=timezone.utc)
    lunch = {"inicio": "12:00", "fim": "14:00"}
    assert quiet_until(datetime(2026, 3, 11, 12, 30, tzinfo=timezone.utc), "UTC", lunch) == datetime(
        2026, 3, 11, 14, 0, tzinfo=timezone.utc)
    assert quiet_until(datetime(2026, 3, 11, 14, 0, tzinfo=timezone.utc), "UTC", lunch) is None
    assert idempotency_key("ins_ab", "email") == "crm-jrn:ins_ab:email"


async def test_the_schedules_enroll_segment_entries_wake_due_waits_and_recover_lost_jobs(crm, act):
    from datetime import timedelta

    from schedules.crm.journeys import enroll_segments, recover_stale, wake_due

    owner = await act("admin")
    tag = secrets.token_hex(3)
    segment = await crm.post("/v1/segmentos", headers=owner.headers, json={
        "nome": "VIPs", "regras": {"todas": [{"atributo": "vip", "op": "igual", "valor": True},
                                             {"evento": "compra", "dias": 30}]}})
    assert segment.status_code == 201, segment.text
    journey = (await crm.post("/v1/jornadas", headers=owner.headers, json={
        **welcome(), "gatilho": {"tipo": "segmento", "segmento_id": segment.json()["segmento"]["id"]}})).json()[
        "jornada"]
    assert journey["problemas"] == [], journey
    assert (await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers,
                          json={"ativa": True})).status_code == 200
    inside = (await crm.post("/v1/eventos", headers=owner.headers, json={
        "email": f"in-{tag}@example.com", "nome": "compra"})).json()["evento"]["contato_id"]
    await crm.patch(f"/v1/contatos/{inside}", headers=owner.headers, json={"atributos": {"vip": True}})
    await crm.post("/v1/eventos", headers=owner.headers, json={"email": f"out-{tag}@example.com", "nome": "compra"})

    assert await enroll_segments() >= 1
    await enroll_segments()
    rows = await Enrollment.filter(journey__public_id=journey["id"]).prefetch_related("contact")
    assert [row.contact.public_id for row in rows] == [inside]

    [row] = rows
    past = datetime.now(timezone.utc) - timedelta(seconds=1)
    await Enrollment.filter(id=row.id).update(state="aguardando", wake_at=past)
    jobs = await OutboxEntry.filter(actor="crm_journeys.advance").count()
    assert await wake_due() >= 1
    woken = await Enrollment.get(id=row.id)
    assert woken.state == "em_andamento" and woken.wake_at is None
    assert await OutboxEntry.filter(actor="crm_journeys.advance").count() > jobs

    await Enrollment.filter(id=row.id).update(updated_at=past - timedelta(minutes=10))
    assert await recover_stale(stale_after=300) >= 1
    assert (await Enrollment.get(id=row.id)).updated_at > past
