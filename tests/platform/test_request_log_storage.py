"""Request-log storage: monthly partitions (migration, scheduler job, on demand) and the flush at stop."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import httpx
from tortoise import connections

from models.platform.request_log import (RequestLog, created_at_of, ensure_partitions, insert_many, months_from,
                                         new_log_id, partition_name)
from schedules.platform.request_logs import create_partitions
from tests.fixtures.harness import free_port
from tests.fixtures.polling import until


async def partitions() -> set[str]:
    rows = await connections.get("platform").execute_query_dict(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'request_logs'")
    return {row["relname"] for row in rows}


async def test_the_table_is_partitioned_by_month_with_the_months_ahead():
    conn = connections.get("platform")
    [row] = await conn.execute_query_dict(
        "SELECT pg_get_partkeydef('request_logs'::regclass) AS key")
    assert row["key"] == "RANGE (created_at)"
    await create_partitions()
    wanted = {partition_name(month) for month in months_from(datetime.now(timezone.utc))}
    assert wanted <= await partitions()
    # Running again creates nothing.
    assert await create_partitions() == []
    indexes = await conn.execute_query_dict(
        "SELECT indexname FROM pg_indexes WHERE tablename = $1", [partition_name(datetime.now(timezone.utc))])
    names = {row["indexname"] for row in indexes}
    # The primary key, the seven filter indexes of 0004, method and path of 0008 and the mode's of 0022,
    # on every partition.
    assert len(names) == 11 and any(name.endswith("_tenant_id_mode_created_at_id_idx") for name in names)


async def test_a_missing_month_is_created_on_demand_and_rows_land_in_it():
    conn = connections.get("platform")
    moment = datetime(2091, 3, 15, 12, 0, tzinfo=timezone.utc)
    assert partition_name(moment) not in await partitions()
    row = {"id": new_log_id(moment), "created_at": moment, "tenant_id": 0, "api_key_id": "key_x", "api_key_name": "x",
           "mode": "live", "method": "GET", "path": "/v1/account", "route": "/v1/account", "status": 200,
           "duration_ms": 0.5, "idempotency_key": None, "error_code": None, "message_ids": "[]",
           "request_id": "req_future", "trace_id": "0" * 32, "query": None, "request_body": None,
           "response_body": None, "request_body_truncated": False, "response_body_truncated": False,
           "redaction_version": 1}
    try:
        assert await ensure_partitions(conn, [moment]) == [partition_name(moment)]
        await insert_many(conn, [row])
        stored = await RequestLog.get(id=row["id"], created_at=created_at_of(row["id"]))
        assert stored.created_at == moment and stored.request_id == "req_future"
        [count] = await conn.execute_query_dict(f"SELECT count(*) AS n FROM {partition_name(moment)}")
        assert count["n"] == 1
    finally:
        await conn.execute_script(f"DROP TABLE IF EXISTS {partition_name(moment)}")


def test_log_ids_carry_their_creation_time():
    moment = datetime(2026, 10, 7, 12, 30, 45, 123456, tzinfo=timezone.utc)
    log_id = new_log_id(moment)
    assert log_id.startswith("log_") and len(log_id) == 28
    assert created_at_of(log_id) == moment
    assert created_at_of("log_zz") is None and created_at_of("msg_" + log_id[4:]) is None
    assert new_log_id(moment) < new_log_id(moment.replace(microsecond=123457))


async def test_a_graceful_stop_writes_what_is_buffered(start_server, make_account):
    server = start_server("platform", PLATFORM_PORT=str(free_port()))
    account = await make_account()
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        responses = await asyncio.gather(*(client.get("/v1/account", headers=account.headers) for _ in range(30)))
    request_ids = [r.headers["X-Request-Id"] for r in responses]
    server.stop()
    assert server.process.returncode is not None

    async def written():  # handed to the stream at the stop; the stream consumer writes the rows
        return await RequestLog.filter(request_id__in=request_ids).count() == 30

    await until(written, 60, "the 30 rows of the requests buffered at the stop")


async def test_a_nul_in_a_request_is_stored_and_its_neighbours_are_not_lost(start_server, make_account):
    """PostgreSQL text and jsonb take no NUL: a request carrying one (in the query, in the body)
    is logged with U+FFFD in its place, and the rows written with it are all there."""
    server = start_server("platform", PLATFORM_PORT=str(free_port()))
    account = await make_account(scopes=("email:send", "email:read"))
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        plain = [client.get("/v1/account", headers=account.headers) for _ in range(10)]
        odd = [client.get("/v1/emails?q=a%00b", headers=account.headers),
               client.get("/v1/emails/msg_%00", headers=account.headers),
               client.get("/v1/logs?path=%00&method=G%00", headers=account.headers),
               client.post("/v1/emails/send", headers={**account.headers, "Content-Type": "application/json"},
                           content=b'{"Source": "a\\u0000@b.test", "Nul": "\x00"}')]
        responses = await asyncio.gather(*plain, *odd)
    request_ids = [r.headers["X-Request-Id"] for r in responses]
    server.stop()

    async def written():  # the stream consumer writes the rows after the server handed them over
        found = await RequestLog.filter(request_id__in=request_ids)
        return found if len(found) == len(request_ids) else None

    rows = await until(written, 60, "every request's row, written by the stream consumer")
    stored = " ".join(f"{row.query} {row.request_body}" for row in rows)
    assert "\x00" not in stored and "\\u0000" not in str(rows[-1].query)
