"""An account's request logs on the dashboard: the same store as /v1/logs, for owners and admins;
the list, one record, the series per bucket and status class, the summary; and the support trail."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tortoise import connections

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member


def log_row(tenant_pk: int, moment: datetime, status: int, duration: float, error_code: str | None,
            mode: str = "live") -> dict:
    from models.platform.request_log import new_log_id

    return {"id": new_log_id(moment), "created_at": moment, "tenant_id": tenant_pk, "api_key_id": "key_dash",
            "api_key_name": "dash", "mode": mode, "method": "POST", "path": "/v1/emails/send",
            "route": "/v1/emails/send", "status": status, "duration_ms": duration, "idempotency_key": None,
            "error_code": error_code, "message_ids": "[]", "request_id": f"req_{status}", "trace_id": "0" * 32,
            "query": None, "request_body": '{"Source":"a@b.example"}', "response_body": None,
            "request_body_truncated": False, "response_body_truncated": False, "redaction_version": 1}


async def test_logs_series_summary_and_one_record(dashboard, identity):
    from models.platform import Tenant
    from models.platform.request_log import ensure_partitions, insert_many

    owner = await signed_in_member(identity, dashboard, "logs")
    account = await new_account(dashboard, owner, "Logged")
    tenant = await Tenant.get(public_id=account["Id"])
    now = datetime.now(timezone.utc).replace(microsecond=0)
    rows = [log_row(tenant.id, now - timedelta(minutes=minutes), status, duration, code)
            for minutes, status, duration, code in ((1, 202, 10.0, None), (2, 202, 20.0, None), (3, 422, 30.0,
                                                    "ValidationError"), (4, 500, 40.0, "InternalError"),
                                                   (5, 422, 50.0, "ValidationError"))]
    rows.append(log_row(tenant.id, now - timedelta(minutes=6), 202, 1.0, None, mode="test"))
    conn = connections.get("platform")
    await ensure_partitions(conn, [now])
    await insert_many(conn, rows)
    base = f"/api/tenants/{account['Id']}/logs"

    listed = await dashboard.get(base, headers=owner.auth, params={"limit": "2"})
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert body["object"] == "list" and body["has_more"] is True and len(body["data"]) == 2
    assert body["data"][0]["id"] == rows[0]["id"]
    more = await dashboard.get(base, headers=owner.auth, params={"limit": "10", "after": body["next"]})
    assert [row["id"] for row in more.json()["data"]] == [row["id"] for row in rows[2:5]]
    tested = await dashboard.get(base, headers=owner.auth, params={"mode": "test"})
    assert [row["id"] for row in tested.json()["data"]] == [rows[5]["id"]]
    stray = await dashboard.get(base, headers=owner.auth, params={"colour": "red"})
    assert stray.status_code == 422 and "colour" in stray.json()["Error"]["Message"]

    one = await dashboard.get(f"{base}/{rows[2]['id']}", headers=owner.auth)
    assert one.status_code == 200 and one.json()["status"] == 422 and "request_body" in one.json()
    assert (await dashboard.get(f"{base}/{rows[5]['id']}", headers=owner.auth)).status_code == 404  # test mode

    summary = await dashboard.get(f"{base}/resumo", headers=owner.auth)
    assert summary.status_code == 200, summary.text
    found = summary.json()
    assert found["total"] == 5 and found["errors"] == 3 and found["error_rate"] == 0.6
    assert found["p50_ms"] == 30.0 and 40.0 < found["p95_ms"] <= 50.0
    assert found["top_errors"][0] == {"error_code": "ValidationError", "count": 2}

    series = await dashboard.get(f"{base}/series", headers=owner.auth, params={"bucket": "day"})
    assert series.status_code == 200, series.text
    totals = {"2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0}
    for bucket in series.json()["data"]:
        for name, count in bucket["counts"].items():
            totals[name] += count
    assert totals == {"2xx": 2, "3xx": 0, "4xx": 2, "5xx": 1}
    assert (await dashboard.get(f"{base}/series", headers=owner.auth, params={"bucket": "year"})).status_code == 400

    reader = await signed_in_member(identity, dashboard, "logreader")
    await join(dashboard, owner, account["Id"], reader)
    refused = await dashboard.get(base, headers=reader.auth)
    assert refused.status_code == 403  # owners and admins only


async def test_the_support_trail_is_the_accounts(dashboard, identity):
    from models.platform import SupportSession, Tenant

    owner = await signed_in_member(identity, dashboard, "trail")
    account = await new_account(dashboard, owner, "Trailed")
    empty = await dashboard.get(f"/api/tenants/{account['Id']}/impersonations", headers=owner.auth)
    assert empty.status_code == 200 and empty.json()["Impersonations"] == []
    tenant = await Tenant.get(public_id=account["Id"])
    opened = await SupportSession.create(tenant=tenant, operator_id="usr_staff", operator_email="staff@herald.test",
                                         reason="ticket 42", expires_at=datetime.now(timezone.utc) + timedelta(hours=1))
    trail = await dashboard.get(f"/api/tenants/{account['Id']}/impersonations", headers=owner.auth)
    assert [(row["Id"], row["Reason"]) for row in trail.json()["Impersonations"]] == [(opened.public_id, "ticket 42")]
