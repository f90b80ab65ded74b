"""Alerts (issue 17, item 8): CRUD over HTTP; the evaluating actor's state machine (calm ->
firing -> calm, an event on each transition) over real CRM data; an edit of the configuration
resets the alert to calm; the account-wide firing history, keyset paged; the scheduled job hands
the evaluations to the CRM outbox."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta, timezone

from models.crm import Contact, CrmAlert, CrmDelivery, CrmDestination, OutboxEntry
from models.crm.alert import metric_value
from models.crm.delivery import seal_payload
from schedules.crm.alerts import enqueue_due
from tasks.crm.alerts import evaluate_alert
from tortoise import connections


async def make_alert(crm, acting, **fields) -> dict:
    body = {"nome": "Descadastros", "metrica": "taxa_descadastro", "limite": 10, "janela_minutos": 60, **fields}
    answer = await crm.post("/v1/alertas", headers=acting.headers, json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()["alerta"]


async def pk_of(alert: dict) -> int:
    return (await CrmAlert.get(public_id=alert["id"])).id


async def test_alert_crud_validation_and_tenancy(crm, act):
    owner = await act("admin")
    alert = await make_alert(crm, owner)
    assert alert["estado"] == "calm" and alert["id"].startswith("alr_") and alert["ultimo_valor"] is None
    path = f"/v1/alertas/{alert['id']}"
    assert (await crm.get(path, headers=owner.headers)).json()["alerta"]["nome"] == "Descadastros"
    assert [a["id"] for a in (await crm.get("/v1/alertas", headers=owner.headers)).json()["alertas"]] == [alert["id"]]
    patched = await crm.patch(path, headers=owner.headers, json={"limite": 25.5, "metrica": "falhas_jornada"})
    assert patched.status_code == 200 and patched.json()["alerta"]["limite"] == 25.5

    for bad in ({"metrica": "bounces"}, {"limite": -1}, {"janela_minutos": 1}):
        refused = await crm.post("/v1/alertas", headers=owner.headers,
                                 json={"nome": "x", "metrica": "queda_contatos", "limite": 1, **bad})
        assert refused.status_code in (400, 422), refused.text
    assert (await crm.post("/v1/alertas", headers=owner.headers,
                           json={"nome": "x", "metrica": "bounces", "limite": 1})).status_code == 422

    outsider = await act("admin")
    assert (await crm.get(path, headers=outsider.headers)).status_code == 404
    assert (await crm.patch(path, headers=outsider.headers, json={"limite": 1})).status_code == 404
    assert (await crm.get("/v1/alertas/eventos", headers=outsider.headers)).json()["eventos"] == []
    reader = await act("leitor", tenant=owner.tenant)
    assert (await crm.patch(path, headers=reader.headers, json={"limite": 1})).status_code == 403
    assert (await crm.delete(path, headers=owner.headers)).status_code == 204
    assert (await crm.get(path, headers=owner.headers)).status_code == 404


async def test_unsubscribe_rate_fires_an_edit_resets_and_the_history_is_paged(crm, act):
    owner = await act("admin")
    alert = await make_alert(crm, owner, limite=40)
    pk = await pk_of(alert)
    contacts = [(await crm.post("/v1/contatos", headers=owner.headers,
                                json={"email": f"a{i}-{secrets.token_hex(3)}@example.com"})).json()["contato"]
                for i in range(2)]
    assert await evaluate_alert(pk) == "calm"
    assert (await crm.get(f"/v1/alertas/{alert['id']}", headers=owner.headers)).json()["alerta"]["ultimo_valor"] == 0

    await crm.put(f"/v1/contatos/{contacts[0]['id']}/consentimento", headers=owner.headers, json={"recebe": False})
    assert await evaluate_alert(pk) == "firing"  # 1 of 2 contacts opted out: 50 >= 40
    assert await evaluate_alert(pk) == "firing"  # no transition, no second event
    state = (await crm.get(f"/v1/alertas/{alert['id']}", headers=owner.headers)).json()["alerta"]
    assert state["estado"] == "firing" and state["ultimo_valor"] == 50 and state["estado_desde"]
    [fired] = (await crm.get("/v1/alertas/eventos", headers=owner.headers)).json()["eventos"]
    assert (fired["tipo"], fired["alerta_id"], fired["valor"], fired["limite"]) == ("disparou", alert["id"], 50, 40)

    edited = await crm.patch(f"/v1/alertas/{alert['id']}", headers=owner.headers, json={"limite": 60})
    assert edited.json()["alerta"]["estado"] == "calm" and edited.json()["alerta"]["ultimo_valor"] is None
    assert await evaluate_alert(pk) == "calm"
    await crm.patch(f"/v1/alertas/{alert['id']}", headers=owner.headers, json={"limite": 50})
    assert await evaluate_alert(pk) == "firing"
    await crm.put(f"/v1/contatos/{contacts[0]['id']}/consentimento", headers=owner.headers, json={"recebe": True})
    # The opt-out is gone: the rate is 0 again and the alert calms down on its own.
    assert await evaluate_alert(pk) == "calm"

    first = await crm.get("/v1/alertas/eventos", headers=owner.headers, params={"limit": 2})
    page = first.json()
    assert [e["tipo"] for e in page["eventos"]] == ["normalizou", "disparou"] and page["tem_mais"] is True
    rest = (await crm.get("/v1/alertas/eventos", headers=owner.headers,
                          params={"limit": 2, "cursor": page["proximo_cursor"]})).json()
    assert [e["tipo"] for e in rest["eventos"]] == ["reiniciado", "disparou"] and rest["tem_mais"] is False
    # Deleting the alert keeps the account's history.
    assert (await crm.delete(f"/v1/alertas/{alert['id']}", headers=owner.headers)).status_code == 204
    assert len((await crm.get("/v1/alertas/eventos", headers=owner.headers)).json()["eventos"]) == 4


async def test_contacts_drop_and_delivery_failures_metrics(crm, act):
    owner = await act("admin")
    conn = connections.get("crm")
    for i in range(4):
        await crm.post("/v1/contatos", headers=owner.headers, json={"email": f"m{i}-{secrets.token_hex(3)}@example.com"})
    assert await metric_value(conn, owner.tenant, "queda_contatos", 60) == 0  # nothing before: no drop
    # Three of them move to the window before: 1 now against 3 then is a drop of 66.7 %.
    ids = await Contact.filter(tenant=owner.tenant).order_by("id").limit(3).values_list("id", flat=True)
    await Contact.filter(id__in=ids).update(created_at=datetime.now(timezone.utc) - timedelta(minutes=90))
    assert round(await metric_value(conn, owner.tenant, "queda_contatos", 60), 1) == 66.7

    destination = await crm.post("/v1/destinos", headers=owner.headers,
                                  json={"url": "https://hooks.example.com/x", "eventos": ["contact.created"]})
    target = await CrmDestination.get(public_id=destination.json()["destino"]["id"])
    # Rows as the pipeline writes them (a sealed event), the retrying one due tomorrow: no worker of the run
    # (this process's others share the database) takes them up meanwhile.
    for status in ("failed", "retrying", "succeeded"):
        await CrmDelivery.create(tenant=owner.tenant, target_kind="destination", destination_id=target.id,
                                 event_id="evt_x", event_type="contact.created",
                                 payload=seal_payload(owner.tenant, {"type": "contact.created"}), status=status,
                                 last_attempt_at=datetime.now(timezone.utc),
                                 next_attempt_at=datetime.now(timezone.utc) + timedelta(days=1))
    assert await metric_value(conn, owner.tenant, "falhas_entrega", 60) == 2
    assert await metric_value(conn, owner.tenant, "falhas_jornada", 60) == 0

    alert = await make_alert(crm, owner, metrica="falhas_entrega", limite=2)
    assert await evaluate_alert(await pk_of(alert)) == "firing"


async def test_the_scheduled_job_hands_enabled_alerts_to_the_outbox(crm, act):
    owner = await act("admin")
    on = await CrmAlert.get(public_id=(await make_alert(crm, owner))["id"])
    off = await CrmAlert.get(public_id=(await make_alert(crm, owner, ativo=False))["id"])
    jobs = OutboxEntry.filter(actor="crm_alerts.evaluate")
    before = [args for args in await jobs.values_list("args", flat=True)].count([on.id])
    assert await enqueue_due() >= 1
    await on.refresh_from_db()
    await off.refresh_from_db()
    assert on.enqueued_at is not None and off.enqueued_at is None
    assert [args for args in await jobs.values_list("args", flat=True)].count([on.id]) == before + 1
    await enqueue_due()  # handed over within the minute: not again
    assert [args for args in await jobs.values_list("args", flat=True)].count([on.id]) == before + 1
