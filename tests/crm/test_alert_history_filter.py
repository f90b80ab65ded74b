"""One alert's firing history (``GET /v1/alertas/eventos?alerta=``, the console's alert page): only
that alert's events, keyset paged with a cursor bound to that alert, a deleted alert's kept, and
another account's alert never seen."""

from __future__ import annotations

from models.crm import CrmAlert
from tasks.crm.alerts import evaluate_alert

EVENTS = "/v1/alertas/eventos"


async def fired_alert(crm, acting, name: str) -> dict:
    """An alert on failed deliveries with a threshold of 0: its first reading (0 >= 0) fires it."""
    made = await crm.post("/v1/alertas", headers=acting.headers,
                          json={"nome": name, "metrica": "falhas_entrega", "limite": 0, "janela_minutos": 60})
    assert made.status_code == 201, made.text
    alert = made.json()["alerta"]
    assert await evaluate_alert((await CrmAlert.get(public_id=alert["id"])).id) == "firing"
    return alert


async def test_one_alerts_history_paged_and_kept_after_its_deletion(crm, act):
    owner = await act("admin")
    first, second = await fired_alert(crm, owner, "First"), await fired_alert(crm, owner, "Second")
    # The first edited twice: reset (it was firing), fired again, reset again.
    for limit in (0, 5):
        assert (await crm.patch(f"/v1/alertas/{first['id']}", headers=owner.headers,
                                json={"limite": limit})).status_code == 200
        await evaluate_alert((await CrmAlert.get(public_id=first["id"])).id)

    everything = (await crm.get(EVENTS, headers=owner.headers)).json()["eventos"]
    assert {event["alerta_id"] for event in everything} == {first["id"], second["id"]}
    page = (await crm.get(EVENTS, headers=owner.headers, params={"alerta": first["id"], "limit": 2})).json()
    assert [e["tipo"] for e in page["eventos"]] == ["reiniciado", "disparou"] and page["tem_mais"] is True
    rest = (await crm.get(EVENTS, headers=owner.headers,
                          params={"alerta": first["id"], "cursor": page["proximo_cursor"]})).json()
    assert [e["tipo"] for e in rest["eventos"]] == ["reiniciado", "disparou"] and rest["tem_mais"] is False
    assert {e["alerta_id"] for e in page["eventos"] + rest["eventos"]} == {first["id"]}
    # A cursor of one alert's history does not page another's.
    crossed = await crm.get(EVENTS, headers=owner.headers,
                            params={"alerta": second["id"], "cursor": page["proximo_cursor"]})
    assert crossed.status_code == 400

    assert (await crm.delete(f"/v1/alertas/{second['id']}", headers=owner.headers)).status_code == 204
    kept = (await crm.get(EVENTS, headers=owner.headers, params={"alerta": second["id"]})).json()["eventos"]
    assert [(e["alerta_nome"], e["tipo"]) for e in kept] == [("Second", "disparou")]

    outsider = await act("admin")
    assert (await crm.get(EVENTS, headers=outsider.headers, params={"alerta": first["id"]})).json()["eventos"] == []
    assert (await crm.get(EVENTS, headers=owner.headers, params={"alerta": "alr_nothing"})).json()["eventos"] == []
