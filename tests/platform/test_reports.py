"""Reports over HTTP: the overview, the timeseries and the top templates read the rollup counters
that the message transitions maintain in their own transactions; windows, defaults and 422s as the
contract states them; every channel key and every empty bucket present."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta, timezone
from datetime import time as dt_time

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member

ZERO = {"Accepted": 0, "Sent": 0, "Delivered": 0, "Failed": 0, "Bounced": 0, "Complained": 0}


async def owner_and_account(dashboard, identity, tag: str):
    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Reports {tag}")
    return account, {**owner.auth, "X-Service-Tenant": account["Id"]}


async def eventually_sent(dashboard, headers, expected: int, seconds: float = 20.0) -> dict:
    deadline = time.monotonic() + seconds
    body = None
    while time.monotonic() < deadline:
        body = (await dashboard.get("/api/reports/overview", headers=headers)).json()
        if body["Totals"]["Sent"] >= expected:
            return body
        await asyncio.sleep(0.2)
    raise AssertionError(f"not {expected} sent: {body}")


async def test_an_account_without_traffic_reads_zeros_everywhere(dashboard, identity):
    _, headers = await owner_and_account(dashboard, identity, "repempty")
    overview = await dashboard.get("/api/reports/overview", headers=headers)
    assert overview.status_code == 200, overview.text
    body = overview.json()
    assert body["Totals"] == ZERO
    assert body["ByChannel"] == {"email": ZERO, "sms": ZERO, "push": ZERO, "whatsapp": ZERO}
    assert body["Rates"] == {"DeliveryRate": 0, "BounceRate": 0, "ComplaintRate": 0, "FailureRate": 0}
    start, end = (datetime.fromisoformat(body["Period"][name].replace("Z", "+00:00")) for name in ("From", "To"))
    assert end - start == timedelta(days=30)  # from defaults to 30 days before to (now)
    assert abs((end - datetime.now(timezone.utc)).total_seconds()) < 60

    series = await dashboard.get("/api/reports/timeseries", params={"from": "2026-01-01", "to": "2026-01-03"},
                                 headers=headers)
    assert series.status_code == 200, series.text
    points = series.json()["Points"]
    assert len(points) == 12  # 3 days (a date-only `to` covers its day) x 4 channels, all empty
    assert [point["Day"] for point in points[::4]] == ["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z",
                                                       "2026-01-03T00:00:00Z"]
    assert {point["Channel"] for point in points} == {"email", "sms", "push", "whatsapp"}
    assert all(point[name] == 0 for point in points for name in ZERO)
    assert series.json()["Period"] == {"From": "2026-01-01T00:00:00Z", "To": "2026-01-04T00:00:00Z",
                                       "Interval": "day"}


async def test_reports_match_what_was_sent(dashboard, identity, pipeline):
    _, headers = await owner_and_account(dashboard, identity, "repsent")
    await dashboard.post("/api/templates", headers=headers, json={"Slug": "promo", "Channel": "sms",
                                                                  "Text": "Promo {{ n }}"})
    await dashboard.post("/api/templates", headers=headers, json={"Slug": "alert", "Channel": "push",
                                                                  "Subject": "Alert", "Text": "{{ what }}"})
    sends = [
        {"Channel": "sms", "Recipients": ["+14155550301", "+14155550302", "+14155550303"], "Template": "promo",
         "Variables": {"n": 1}},
        {"Channel": "push", "Recipients": ["tok-a"], "Template": "alert", "Variables": {"what": "x"}},
        {"Channel": "sms", "Recipients": ["+14155550304"], "Text": "plain"},
    ]
    for body in sends:
        answer = await dashboard.post("/api/messages/send", json=body, headers=headers)
        assert answer.status_code == 202, answer.text
    overview = await eventually_sent(dashboard, headers, 5)
    assert overview["Totals"] == {**ZERO, "Accepted": 5, "Sent": 5}
    assert overview["ByChannel"]["sms"] == {**ZERO, "Accepted": 4, "Sent": 4}
    assert overview["ByChannel"]["push"] == {**ZERO, "Accepted": 1, "Sent": 1}
    assert overview["ByChannel"]["email"] == ZERO and overview["ByChannel"]["whatsapp"] == ZERO

    today = datetime.now(timezone.utc).date()
    daily = await dashboard.get("/api/reports/timeseries", headers=headers, params={
        "from": str(today - timedelta(days=2)), "to": str(today)})
    points = daily.json()["Points"]
    assert len(points) == 12
    today_sms = [p for p in points if p["Channel"] == "sms" and p["Day"] == f"{today}T00:00:00Z"]
    assert today_sms and today_sms[0]["Accepted"] == 4 and today_sms[0]["Sent"] == 4
    assert all(p["Accepted"] == 0 for p in points if not p["Day"].startswith(str(today)))

    hourly = await dashboard.get("/api/reports/timeseries", headers=headers, params={
        "from": str(today), "to": str(today), "interval": "hour", "channel": "push"})
    assert hourly.status_code == 200, hourly.text
    hours = hourly.json()["Points"]
    assert len(hours) == 24 and {p["Channel"] for p in hours} == {"push"}
    assert sum(p["Accepted"] for p in hours) == 1
    assert hourly.json()["Period"]["Interval"] == "hour"

    top = await dashboard.get("/api/reports/top-templates", headers=headers, params={"limit": 100})
    assert top.status_code == 200, top.text
    rows = top.json()["Templates"]
    assert [row["Template"] for row in rows] == ["promo", "alert"]  # most accepted first; no-template sends left out
    assert rows[0]["Accepted"] == 3 and rows[0]["Sent"] == 3


async def test_windows_and_parameters_are_checked(dashboard, identity):
    _, headers = await owner_and_account(dashboard, identity, "repparams")
    refusals = [
        ("/api/reports/overview", {"from": "2026-02-02", "to": "2026-02-01"}, "from"),
        ("/api/reports/overview", {"from": "yesterday"}, "from"),
        ("/api/reports/overview", {"to": "2026-02-30"}, "to"),
        ("/api/reports/overview", {"to": "2026-02-01T10:00:00"}, "to"),  # RFC 3339 needs its offset
        ("/api/reports/timeseries", {"interval": "week"}, "interval"),
        ("/api/reports/timeseries", {"interval": "month"}, "interval"),
        ("/api/reports/timeseries", {"interval": "minute"}, "interval"),
        ("/api/reports/timeseries", {"channel": "telegram"}, "channel"),
        ("/api/reports/timeseries", {"interval": "hour", "from": "2026-01-01", "to": "2026-03-01"}, "from"),
        ("/api/reports/top-templates", {"limit": 0}, "limit"),
        ("/api/reports/top-templates", {"limit": 101}, "limit"),
        ("/api/reports/overview", {"tenant": "acc_x"}, "tenant"),
    ]
    for path, params, field in refusals:
        refused = await dashboard.get(path, params=params, headers=headers)
        assert refused.status_code == 422, (path, params, refused.text)
        assert field in refused.json()["Error"]["Details"], (path, params, refused.text)
    same = await dashboard.get("/api/reports/overview", params={"from": "2026-02-01", "to": "2026-02-01"},
                               headers=headers)
    assert same.status_code == 200
    assert same.json()["Period"] == {"From": "2026-02-01T00:00:00Z", "To": "2026-02-02T00:00:00Z"}
    offset = await dashboard.get("/api/reports/overview", headers=headers,
                                 params={"from": "2026-02-01T10:00:00+02:00", "to": "2026-02-01T12:00:00.5Z"})
    assert offset.json()["Period"] == {"From": "2026-02-01T08:00:00Z", "To": "2026-02-01T12:00:00.500000Z"}


async def seed(tenant, mode: str, hour: datetime, rows: list[tuple[str, str, str, int]]) -> None:
    """Counters as the transitions write them: the hour's and the day's."""
    from tortoise import connections

    day = hour.replace(hour=0)
    conn = connections.get("platform")
    for table, column, at in (("report_counters", "hour", hour), ("report_daily_counters", "day", day)):
        for channel, status, template, count in rows:
            await conn.execute_query(
                f"INSERT INTO {table} (tenant_id, mode, {column}, channel, status, template, count) "
                f"VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, mode, {column}, channel, status, "
                f"template, shard) DO UPDATE SET count = {table}.count + EXCLUDED.count",
                [tenant.id, mode, at, channel, status, template, count])


async def test_rates_are_clamped_and_rounded_and_top_templates_capped(dashboard, identity):
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "reprates")
    tenant = await Tenant.get(public_id=account["Id"])
    hour = datetime(2026, 3, 1, 10, tzinfo=timezone.utc)
    await seed(tenant, "live", hour, [("email", "queued", "", 3), ("email", "sent", "", 3),
                                      ("email", "delivered", "", 5), ("email", "bounced", "", 1),
                                      ("email", "failed", "", 1), ("sms", "queued", "", 7)])
    await seed(tenant, "test", hour, [("sms", "queued", "", 1000)])
    await seed(tenant, "live", hour, [("sms", "queued", f"tpl{index:02d}", index + 1) for index in range(60)])
    body = (await dashboard.get("/api/reports/overview", headers=headers,
                                params={"from": "2026-03-01", "to": "2026-03-01"})).json()
    assert body["Rates"]["DeliveryRate"] == 1  # 5 delivered of 3 sent in the window: clamped
    assert body["Rates"]["BounceRate"] == 0.3333
    assert body["Rates"]["FailureRate"] == round(1 / (3 + 7 + sum(range(1, 61))), 4)
    assert body["ByChannel"]["sms"]["Accepted"] == 7 + sum(range(1, 61))  # test-mode traffic is not reported
    outside = (await dashboard.get("/api/reports/overview", headers=headers,
                                   params={"from": "2026-03-01T11:00:00Z", "to": "2026-03-02"})).json()
    assert outside["Totals"]["Accepted"] == 0  # the counters of 10:00 are outside [11:00, ...)
    top = (await dashboard.get("/api/reports/top-templates", headers=headers,
                               params={"from": "2026-03-01", "to": "2026-03-01", "limit": 100})).json()["Templates"]
    assert len(top) == 50 and top[0]["Template"] == "tpl59" and top[0]["Accepted"] == 60
    default = (await dashboard.get("/api/reports/top-templates", headers=headers,
                                   params={"from": "2026-03-01", "to": "2026-03-01"})).json()["Templates"]
    assert len(default) == 10
    foreign_header = {**headers, "X-Service-Tenant": "acc_" + "0" * 24}
    assert (await dashboard.get("/api/reports/overview", headers=foreign_header)).status_code == 404


async def test_whole_days_and_partial_edges_add_up(dashboard, identity):
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "repedges")
    tenant = await Tenant.get(public_id=account["Id"])
    for moment, count in ((datetime(2026, 4, 1, 5, tzinfo=timezone.utc), 1),
                          (datetime(2026, 4, 2, 12, tzinfo=timezone.utc), 10),
                          (datetime(2026, 4, 3, 20, tzinfo=timezone.utc), 100),
                          (datetime(2026, 4, 3, 22, tzinfo=timezone.utc), 1000)):
        await seed(tenant, "live", moment, [("push", "queued", "", count)])
    window = {"from": "2026-04-01T06:00:00Z", "to": "2026-04-03T21:00:00Z"}
    overview = (await dashboard.get("/api/reports/overview", params=window, headers=headers)).json()
    assert overview["Totals"]["Accepted"] == 110  # 04-02 from the day's counters, 20:00 on 04-03 from the hour's
    points = (await dashboard.get("/api/reports/timeseries", params={**window, "channel": "push"},
                                  headers=headers)).json()["Points"]
    assert [(p["Day"][:10], p["Accepted"]) for p in points] == [("2026-04-01", 0), ("2026-04-02", 10),
                                                                ("2026-04-03", 100)]
    whole = (await dashboard.get("/api/reports/overview", params={"from": "2026-04-01", "to": "2026-04-03"},
                                 headers=headers)).json()
    assert whole["Totals"]["Accepted"] == 1111


async def test_counters_commit_and_roll_back_with_the_transition(dashboard, identity):
    from tortoise.transactions import in_transaction

    from models.platform.message import Message
    from models.platform.receipts import record_receipt
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "reptx")
    tenant = await Tenant.get(public_id=account["Id"])
    message = await Message.create(tenant=tenant, channel="sms", status="sent", mode="live", recipient="+14155550401",
                                   recipient_role="to", content={"Body": "x"}, template="otp",
                                   provider_message_id="SM-reptx-1")

    class Abort(Exception):
        pass

    try:
        async with in_transaction("platform") as conn:
            await record_receipt(conn, tenant.id, "sms", "SM-reptx-1", "delivered", "delivered", {})
            raise Abort()
    except Abort:
        pass
    assert (await dashboard.get("/api/reports/overview", headers=headers)).json()["Totals"]["Delivered"] == 0
    assert (await Message.get(id=message.id)).status == "sent"

    async with in_transaction("platform") as conn:
        await record_receipt(conn, tenant.id, "sms", "SM-reptx-1", "delivered", "delivered", {})
    body = (await dashboard.get("/api/reports/overview", headers=headers)).json()
    assert body["ByChannel"]["sms"]["Delivered"] == 1 and body["Totals"]["Delivered"] == 1
    top = (await dashboard.get("/api/reports/top-templates", headers=headers)).json()["Templates"]
    assert top[0]["Template"] == "otp" and top[0]["Delivered"] == 1
    async with in_transaction("platform") as conn:  # a repeated receipt moves nothing and counts nothing
        await record_receipt(conn, tenant.id, "sms", "SM-reptx-1", "delivered", "delivered", {})
    assert (await dashboard.get("/api/reports/overview", headers=headers)).json()["Totals"]["Delivered"] == 1


async def test_a_message_the_reconciler_gives_up_on_is_counted_failed(dashboard, identity):
    from models.platform.message import Message
    from models.platform.tenant import Tenant
    from schedules.platform.delivery import MAX_HANDBACK_ATTEMPTS, reconcile

    account, headers = await owner_and_account(dashboard, identity, "repstall")
    tenant = await Tenant.get(public_id=account["Id"])
    stalled = await Message.create(tenant=tenant, channel="email", status="sending", mode="live",
                                   recipient="a@example.com", recipient_role="to", content={"Text": "x"},
                                   template="digest", attempts=MAX_HANDBACK_ATTEMPTS,
                                   lease_until=datetime.now(timezone.utc) - timedelta(minutes=5))
    # Claimed (updated) before its lease ran out, as a worker that died would have left it.
    await Message.filter(id=stalled.id).update(updated_at=datetime.now(timezone.utc) - timedelta(minutes=6))
    await reconcile(300)  # a pipeline's scheduler may have got there first: the count is the same
    body = (await dashboard.get("/api/reports/overview", headers=headers)).json()
    assert body["ByChannel"]["email"]["Failed"] == 1 and body["Totals"]["Failed"] == 1
    top = (await dashboard.get("/api/reports/top-templates", headers=headers)).json()["Templates"]
    assert top == [{"Template": "digest", **ZERO, "Failed": 1, "DeliveryRate": 0, "BounceRate": 0,
                    "ComplaintRate": 0, "FailureRate": 0}]


async def test_whatsapp_is_reported_like_the_other_channels(dashboard, identity):
    from tortoise.transactions import in_transaction

    from models.platform.message import Message
    from models.platform.receipts import record_receipt
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "repwa")
    tenant = await Tenant.get(public_id=account["Id"])
    hour = datetime(2026, 5, 4, 9, tzinfo=timezone.utc)
    await seed(tenant, "live", hour, [("whatsapp", "queued", "welcome", 4), ("whatsapp", "sent", "welcome", 4),
                                      ("sms", "queued", "", 2)])
    window = {"from": "2026-05-03", "to": "2026-05-04"}
    body = (await dashboard.get("/api/reports/overview", params=window, headers=headers)).json()
    assert body["ByChannel"]["whatsapp"] == {**ZERO, "Accepted": 4, "Sent": 4}
    assert body["Totals"]["Accepted"] == 6 and body["ByChannel"]["email"] == ZERO
    series = await dashboard.get("/api/reports/timeseries", params={**window, "channel": "whatsapp"},
                                 headers=headers)
    assert series.status_code == 200, series.text
    assert [(p["Day"][:10], p["Channel"], p["Accepted"]) for p in series.json()["Points"]] == [
        ("2026-05-03", "whatsapp", 0), ("2026-05-04", "whatsapp", 4)]

    # A WhatsApp transition counts in its own transaction, as every channel's does.
    await Message.create(tenant=tenant, channel="whatsapp", status="sent", mode="live", recipient="+14155550501",
                         recipient_role="to", content={"Body": "x"}, template="welcome",
                         provider_message_id="wamid.repwa-1")
    async with in_transaction("platform") as conn:
        await record_receipt(conn, tenant.id, "whatsapp", "wamid.repwa-1", "delivered", "delivered", {})
    today = (await dashboard.get("/api/reports/overview", headers=headers)).json()
    assert today["ByChannel"]["whatsapp"]["Delivered"] == 1
    top = (await dashboard.get("/api/reports/top-templates", headers=headers)).json()["Templates"]
    assert top[0]["Template"] == "welcome" and top[0]["Delivered"] == 1


async def test_sharded_counters_are_summed_and_compaction_keeps_every_count(dashboard, identity):
    """Concurrent transitions add to random shards of a counter; the reports sum them, and the
    hourly compaction folds closed buckets into shard 0 without changing any total."""
    from tortoise import connections

    from models.platform.report import compact_sql
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "repshards")
    tenant = await Tenant.get(public_id=account["Id"])
    conn = connections.get("platform")
    hour = datetime(2026, 5, 4, 9, tzinfo=timezone.utc)
    for table, column, at in (("report_counters", "hour", hour), ("report_daily_counters", "day", hour.replace(hour=0))):
        for shard in range(8):
            await conn.execute_query(
                f"INSERT INTO {table} (tenant_id, mode, {column}, channel, status, template, shard, count) "
                "VALUES ($1, 'live', $2, 'sms', 'queued', 'welcome', $3, $4)", [tenant.id, at, shard, shard + 1])
    window = {"from": "2026-05-04T09:00:00Z", "to": "2026-05-04T10:00:00Z"}
    day = {"from": "2026-05-04", "to": "2026-05-04"}

    async def totals() -> tuple[int, int]:
        by_hour = (await dashboard.get("/api/reports/overview", params=window, headers=headers)).json()
        by_day = (await dashboard.get("/api/reports/overview", params=day, headers=headers)).json()
        return by_hour["Totals"]["Accepted"], by_day["Totals"]["Accepted"]

    assert await totals() == (36, 36)
    await conn.execute_query(compact_sql("report_counters", "hour", "date_trunc('hour', now(), 'UTC') - interval '1 hour'"))
    await conn.execute_query(compact_sql("report_daily_counters", "day", "date_trunc('day', now(), 'UTC') - interval '1 day'"))
    assert await totals() == (36, 36)
    for table in ("report_counters", "report_daily_counters"):
        rows = await conn.execute_query_dict(f"SELECT shard, count FROM {table} WHERE tenant_id = $1", [tenant.id])
        assert rows == [{"shard": 0, "count": 36}], (table, rows)


async def test_closed_days_are_folded_into_the_daily_counters_and_read_alike(dashboard, identity):
    """Transitions write the hourly counters only. The fold replaces each closed day's daily rows
    by the sums of its hours (every shard) and moves the boundary; reports read the days after the
    boundary by the hour, so they answer the same before and after, and a second fold changes nothing."""
    from tortoise import connections
    from tortoise.transactions import in_transaction

    from models.platform.report import fold_days
    from models.platform.tenant import Tenant

    account, headers = await owner_and_account(dashboard, identity, "repfold")
    tenant = await Tenant.get(public_id=account["Id"])
    conn = connections.get("platform")
    [boundary] = await conn.execute_query_dict("SELECT before FROM report_daily_folds WHERE id = 1")
    assert boundary["before"].astimezone(timezone.utc).timetz() == dt_time(0, tzinfo=timezone.utc)  # a UTC midnight
    # Days of June 2025, which only this test writes: hours in shards, and a stale daily row to be replaced.
    for at, shard, count in ((datetime(2025, 6, 1, 10, tzinfo=timezone.utc), 0, 2),
                             (datetime(2025, 6, 1, 23, tzinfo=timezone.utc), 5, 3),
                             (datetime(2025, 6, 2, 0, tzinfo=timezone.utc), 1, 4)):
        await conn.execute_query(
            "INSERT INTO report_counters (tenant_id, mode, hour, channel, status, template, shard, count) "
            "VALUES ($1, 'live', $2, 'sms', 'queued', 'fold', $3, $4)", [tenant.id, at, shard, count])
    await conn.execute_query(
        "INSERT INTO report_daily_counters (tenant_id, mode, day, channel, status, template, shard, count) "
        "VALUES ($1, 'live', '2025-06-01T00:00:00Z', 'sms', 'queued', 'fold', 3, 1000)", [tenant.id])

    async def accepted() -> list[int]:
        found = []
        for window in ({"from": "2025-06-01", "to": "2025-06-01"}, {"from": "2025-06-02", "to": "2025-06-02"},
                       {"from": "2025-06-01", "to": "2025-06-02"}, {"from": "2025-06-01T20:00:00Z", "to": "2025-06-02"}):
            body = (await dashboard.get("/api/reports/overview", params=window, headers=headers)).json()
            found.append(body["Totals"]["Accepted"])
        return found

    async def fold() -> None:
        async with in_transaction("platform") as connection:
            await fold_days(connection, upto="'2025-06-03T00:00:00Z'::timestamptz")

    try:
        # A scheduler of this run (its `report_counters.compact` job) may fold up to yesterday at any
        # moment, moving the boundary from under the steps below. This transaction's KEY SHARE lock on
        # the boundary's row holds such folds off (fold_days takes the row FOR UPDATE) yet lets the
        # UPDATE below (which changes no key) and the dashboard's reads through; the test's own fold
        # runs in it, and its result is read there, before any other fold can run.
        async with in_transaction("platform") as held:
            await held.execute_query("SELECT 1 FROM report_daily_folds WHERE id = 1 FOR KEY SHARE")
            await conn.execute_query("UPDATE report_daily_folds SET before = '2025-06-01T00:00:00Z' WHERE id = 1")
            assert await accepted() == [5, 4, 9, 7]  # nothing folded: by the hour, the stale daily row unread
            await fold_days(held, upto="'2025-06-03T00:00:00Z'::timestamptz")
            rows = await held.execute_query_dict(
                "SELECT day, shard, count FROM report_daily_counters WHERE tenant_id = $1 ORDER BY day", [tenant.id])
            assert [(row["day"].day, row["shard"], row["count"]) for row in rows] == [(1, 0, 5), (2, 0, 4)]
            [moved] = await held.execute_query_dict("SELECT before FROM report_daily_folds WHERE id = 1")
            assert moved["before"] == datetime(2025, 6, 3, tzinfo=timezone.utc)
        # From here a concurrent fold may move the boundary on: it folds these days to the same sums.
        assert await accepted() == [5, 4, 9, 7]
        await fold()  # the boundary is already there: nothing moves
        assert await accepted() == [5, 4, 9, 7]
        rows = await conn.execute_query_dict("SELECT count FROM report_daily_counters WHERE tenant_id = $1", [tenant.id])
        assert sorted(row["count"] for row in rows) == [4, 5]
    finally:
        await conn.execute_query("UPDATE report_daily_folds SET before = $1 WHERE id = 1", [boundary["before"]])
