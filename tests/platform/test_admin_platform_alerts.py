"""Platform alert rules over HTTP, and the scheduler job that fires and recovers them."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone

from tortoise import connections

from models.platform.platform_alert import PlatformAlertRule
from schedules.platform.alerts import evaluate_rules
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import signed_in_member, signed_in_staff


async def count(tenant_id: str, status: str, n: int) -> None:
    """Traffic of the current hour in the rollups, as the pipeline's transitions write it."""
    hour = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0)
    await connections.get("platform").execute_query(
        "INSERT INTO report_counters (tenant_id, mode, hour, channel, status, template, count) "
        "SELECT id, 'live', $2, 'email', $3, '', $4 FROM tenants WHERE public_id = $1 "
        "ON CONFLICT (tenant_id, mode, hour, channel, status, template, shard) "
        "DO UPDATE SET count = report_counters.count + EXCLUDED.count", [tenant_id, hour, status, n])


async def test_a_rule_fires_on_a_bounce_burst_and_recovers(dashboard, identity, make_account):
    staff = await signed_in_staff(identity, dashboard, "alerts")
    account = await make_account()
    rule = {"Name": "Bounces of one account", "Metric": "bounce_rate", "TenantId": account.tenant_id,
            "Threshold": 0.5, "WindowMinutes": 60}
    made = await dashboard.post("/api/admin/platform-alerts", headers=staff.auth, json=rule)
    assert made.status_code == 201, made.text
    alert = made.json()["Alert"]
    assert (alert["Metric"], alert["TenantId"], alert["Firing"], alert["LastValue"]) == \
        ("bounce_rate", account.tenant_id, False, None)

    await count(account.tenant_id, "sent", 10)
    await count(account.tenant_id, "bounced", 6)
    await evaluate_rules()
    events = (await dashboard.get("/api/admin/platform-alerts/events", params={"rule": alert["Id"]},
                                  headers=staff.auth)).json()["Events"]
    assert [(e["Kind"], e["Value"], e["Threshold"]) for e in events] == [("fired", 0.6, 0.5)]
    listed = (await dashboard.get("/api/admin/platform-alerts", params={"limit": 200}, headers=staff.auth)).json()
    mine = next(a for a in listed["Alerts"] if a["Id"] == alert["Id"])
    assert mine["Firing"] is True and mine["LastValue"] == 0.6

    await evaluate_rules()  # still above: no second firing
    await count(account.tenant_id, "sent", 110)
    await evaluate_rules()
    events = (await dashboard.get("/api/admin/platform-alerts/events", params={"rule": alert["Id"]},
                                  headers=staff.auth)).json()["Events"]
    assert [e["Kind"] for e in events] == ["recovered", "fired"]

    replaced = await dashboard.put(f"/api/admin/platform-alerts/{alert['Id']}", headers=staff.auth,
                                   json={**rule, "Threshold": 0.01, "Name": "Stricter"})
    assert replaced.status_code == 200, replaced.text
    assert replaced.json()["Alert"]["Name"] == "Stricter" and replaced.json()["Alert"]["Firing"] is False
    await evaluate_rules()
    events = (await dashboard.get("/api/admin/platform-alerts/events", params={"rule": alert["Id"]},
                                  headers=staff.auth)).json()["Events"]
    assert events[0]["Kind"] == "fired" and events[0]["Threshold"] == 0.01

    assert (await dashboard.delete(f"/api/admin/platform-alerts/{alert['Id']}", headers=staff.auth)).status_code == 204
    assert (await dashboard.delete(f"/api/admin/platform-alerts/{alert['Id']}", headers=staff.auth)).status_code == 404
    gone = await dashboard.put(f"/api/admin/platform-alerts/{alert['Id']}", headers=staff.auth, json=rule)
    assert gone.status_code == 404


async def test_rules_are_checked_and_hidden_from_non_staff(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "rules")
    outsider = await signed_in_member(identity, dashboard, "nosy")
    base = {"Name": "r", "Metric": "failure_rate", "Channel": "sms", "Threshold": 0.2}
    for body, status in (({**base, "Channel": None}, 422), ({**base, "Threshold": 2}, 422),
                         ({**base, "Metric": "relay_lag"}, 422), ({**base, "TenantId": "acc_nope"}, 422),
                         ({**base, "Metric": "cpu"}, 400), ({**base, "WindowMinutes": 0}, 400),
                         ({**base, "Extra": 1}, 400), ({"Name": "lag", "Metric": "relay_lag", "Threshold": 30}, 201),
                         ({"Name": "depth", "Metric": "queue_depth", "Threshold": 1e6}, 201), (base, 201)):
        answer = await dashboard.post("/api/admin/platform-alerts", headers=staff.auth, json=body)
        assert answer.status_code == status, (body, answer.text)
    for path in ("/api/admin/platform-alerts", "/api/admin/platform-alerts/events"):
        assert (await dashboard.get(path, headers=outsider.auth)).status_code == 404
    assert (await dashboard.put(f"/api/admin/platform-alerts/pal_{uuid.uuid4().hex[:24]}", headers=staff.auth,
                                json=base)).status_code == 404
    await PlatformAlertRule.filter(created_by=staff.id).delete()  # no later scheduler judges them


async def test_a_firing_emails_staff_through_the_platform(dashboard, identity, make_account, services, pipeline):
    """The session's worker and scheduler (their worker holds a mail key, as `herald up`'s does): the
    firing's job goes through the outbox to the worker, which sends through /v1/emails/send into the
    sink."""
    import asyncio
    import json

    staff = await signed_in_staff(identity, dashboard, "paged")
    account = await make_account()
    name = f"Burst {uuid.uuid4().hex[:8]}"
    made = await dashboard.post("/api/admin/platform-alerts", headers=staff.auth, json={
        "Name": name, "Metric": "bounce_rate", "TenantId": account.tenant_id, "Threshold": 0.1})
    assert made.status_code == 201, made.text
    await count(account.tenant_id, "sent", 4)
    await count(account.tenant_id, "bounced", 4)
    try:
        await evaluate_rules()  # the scheduler may have judged it first: either way one firing, one job

        def delivered() -> list[dict]:
            folder = pipeline / "email"
            found = [json.loads(path.read_text()) for path in folder.glob("*.json")] if folder.exists() else []
            return [r for r in found if r["To"] == staff.person.email and name in r["Subject"]]

        for _ in range(200):
            if delivered():
                break
            await asyncio.sleep(0.2)
        [record] = delivered()
        assert record["Subject"] == f"[Herald] Alert fired: {name}" and "bounce rate" in record["Content"]["Text"]
        rows = await connections.get("platform").execute_query_dict(
            "SELECT e.kind, e.notified_at FROM platform_alert_events e JOIN platform_alert_rules r ON r.id = e.rule_id "
            "WHERE r.public_id = $1", [made.json()["Alert"]["Id"]])
        assert [row["kind"] for row in rows] == ["fired"]
        for _ in range(50):
            rows = await connections.get("platform").execute_query_dict(
                "SELECT e.notified_at FROM platform_alert_events e JOIN platform_alert_rules r ON r.id = e.rule_id "
                "WHERE r.public_id = $1", [made.json()["Alert"]["Id"]])
            if rows[0]["notified_at"] is not None:
                break
            await asyncio.sleep(0.2)
        assert rows[0]["notified_at"] is not None
    finally:
        await PlatformAlertRule.filter(created_by=staff.id).delete()
