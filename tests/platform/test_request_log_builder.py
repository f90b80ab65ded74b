"""The request log's builder process (app/platform/request_log/builder.py): it gives the rows the
writer would build itself, it is started again after it dies, and the writer builds a batch in its
own process when the builder cannot answer, so no record is lost to it."""

from __future__ import annotations

import json
import socket
from datetime import datetime, timezone

import psutil
import uvloop

from app.platform.api_key.principal import Principal
from app.platform.request_log.buffer import RequestLogBuffer, build_rows
from app.platform.request_log.builder import Builder
from app.platform.request_log.capture import Captured

PRINCIPAL = Principal(key_pk=1, key_id="key_builder", key_name="Builder", scopes=("email:send",), mode="live",
                      publishable=False, revoked=False, tenant_pk=7, tenant_id="ten_builder", tenant_name="Acme",
                      tenant_status="active", plan="free", effective_quota=None)


def _records() -> list[Captured]:
    send = json.dumps({"Source": "a@example.com", "Destination": {"ToAddresses": ["b@example.com"]},
                       "Message": {"Subject": {"Data": "Hi"}, "Body": {"Text": {"Data": "card 4111 1111 1111 1111"}}},
                       "IdempotencyKey": "order-1"}).encode()
    answer = b'{"MessageId": "msg_1", "MessageIds": ["msg_1"], "Status": "queued"}'
    refused = b'{"Error": {"Code": "InvalidApiKey", "Message": "no"}}'
    now = datetime.now(timezone.utc)
    return [
        Captured(now, 3.5, "POST", "/v1/emails/send", "/v1/emails/send", (), None, 202, PRINCIPAL, None, None,
                 "req_1", "0" * 32, send, answer),
        Captured(now, 1.0, "GET", "/v1/emails", "/v1/emails", ("limit",), {"limit": ["5"]}, 401, None, "d" * 64,
                 None, "req_2", "1" * 32, None, refused),
        Captured(now, 1.0, "GET", "/v1/emails", "/v1/emails", (), None, 401, None, "e" * 64, None, "req_3",
                 "2" * 32, None, refused),  # a key of no account: no row
    ]


def _comparable(rows: list[dict]) -> list[dict]:
    return [{name: value for name, value in row.items() if name != "id"} for row in rows]  # ids are random


async def test_the_builder_process_gives_the_rows_the_writer_builds_itself():
    records, keys = _records(), {"d" * 64: (9, "key_other", "Other", "test")}
    builder = Builder()
    try:
        rows = await builder.build(records, keys)
        again = await builder.build(records[:1], keys)  # the same process, a second batch
    finally:
        await builder.close()
    expected = build_rows(records, keys)
    assert _comparable(rows) == _comparable(expected) and len(rows) == 2
    assert _comparable(again) == _comparable(expected[:1])
    assert "4111 1111 1111 1111" not in rows[0]["request_body"] and rows[0]["idempotency_key"] == "order-1"
    assert (rows[0]["message_ids"], rows[1]["error_code"], rows[1]["tenant_id"]) == ('["msg_1"]', "InvalidApiKey", 9)


async def test_a_dead_builder_is_started_again_and_its_batch_built_by_the_writer():
    records = _records()[:1]
    buffer = RequestLogBuffer()
    try:
        first = await buffer._build_rows(records, {})
        process = buffer._builder._process
        assert process is not None and process.returncode is None
        process.kill()
        await process.wait()
        # The builder is gone: this batch is built here, whole.
        built_here = await buffer._build_rows(records, {})
        assert _comparable(built_here) == _comparable(first)
        # The next batch starts a new builder.
        assert _comparable(await buffer._build_rows(records, {})) == _comparable(first)
        assert buffer._builder._process is not None and buffer._builder._process.pid != process.pid
    finally:
        await buffer.close()


def test_the_builder_keeps_no_descriptor_of_the_platform():
    """The platform's listening socket is inheritable (for its workers), and uvloop, which Sanic
    serves on, hands inheritable descriptors to a child: the builder must close them, or the port
    would stay bound in it after the platform has gone."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    listening.set_inheritable(True)

    async def held_by_builder() -> list:
        builder = Builder()
        try:
            await builder.build(_records()[:1], {})
            return psutil.Process(builder._process.pid).net_connections()
        finally:
            await builder.close()

    loop = uvloop.new_event_loop()
    try:
        assert loop.run_until_complete(held_by_builder()) == []
    finally:
        loop.close()
        listening.close()
