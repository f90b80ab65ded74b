"""E-mail out of the identity server: outbox → scheduler job → actor → platform API → sink.

These tests run their own worker and scheduler (with IDENTITY_MAIL_KEY, a test key made here)
on a Redis logical database of their own, so the session's pipeline (if running, without the
key) cannot elect itself leader over them; both share the run's databases and sink directory.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from types import SimpleNamespace

import pytest
import redis
from tortoise import connections
from tortoise.transactions import in_transaction

from tests.fixtures.harness import Process, Server, Services, free_port
from tests.fixtures.polling import until
from tests.fixtures.identity import PASSWORD, unique_email

SENDER = "accounts@sandbox.herald.test"


@pytest.fixture(scope="module")
async def mail_key(database) -> str:
    from app.platform.api_key.service import create_key
    from app.platform.tenant.service import create_tenant
    from models.platform.api_key import KeyKind

    tenant = await create_tenant("Identity mail test", f"identity-mail-{secrets.token_hex(3)}")
    _, key = await create_key(tenant.public_id, "identity e-mail", ["email:send"], KeyKind.TEST)
    return key


@pytest.fixture
def roles(services, servers, mail_key, tmp_path):
    """``roles(role, **env)`` starts a worker or scheduler with the identity mail credential."""
    redis_url = Services._redis_database(services.redis_url)
    base = {**services.env, "REDIS_URL": redis_url, "IDENTITY_MAIL_KEY": mail_key, "IDENTITY_MAIL_FROM": SENDER,
            "WORKER_THREADS": "2"}
    started: list[Process] = []

    def start(role: str, **env: str) -> Process:
        process = Process(role, [role], {**base, **env}, tmp_path / "logs")
        started.append(process)
        return process

    yield start
    for process in started:
        process.stop()
    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def sink_records(sink_dir, address: str) -> list[dict]:
    folder = sink_dir / "email"
    records = [json.loads(path.read_text()) for path in folder.glob("*.json")] if folder.exists() else []
    return [record for record in records if record["To"] == address]


async def outbox_row(address: str) -> dict:
    rows = await connections.get("identity").execute_query_dict(
        "SELECT * FROM emails WHERE to_address = $1 ORDER BY id DESC LIMIT 1", [address])
    assert rows, f"nothing queued to {address}"
    return rows[0]


async def test_a_verification_email_arrives_in_the_sink_through_the_platform(client, servers, services, roles):
    servers("platform")
    roles("scheduler")
    roles("worker")
    email = unique_email("mail")
    created = await client.post("/v1/users", json={"email": email, "password": PASSWORD, "name": "Mail"})
    assert created.status_code == 201, created.text

    [record] = await until(lambda: asyncio.sleep(0, sink_records(services.sink_dir, email)), 40,
                           "the verification e-mail in the sink")
    console_url = services.env["CONSOLE_URL"]  # the e-mailed links open the console
    assert record["From"] == SENDER and record["Mode"] == "test"
    assert record["Subject"] == "Confirm your e-mail address"
    link = next(word for word in record["Content"]["Text"].split() if word.startswith(console_url))
    assert link.startswith(f"{console_url}/verify-email?token=hev_")

    row = await until(lambda: _sent(email), 10, "the outbox row marked sent")
    assert row["message_id"] == record["MessageId"] and row["attempts"] == 1 and row["last_error"] is None
    # Handed over: the row no longer holds the link, sealed or not; only the subject is kept.
    from models.identity.email import open_sealed

    token = link.split("token=", 1)[1]
    assert open_sealed(row["payload_enc"]) == {"subject": "Confirm your e-mail address", "text": "", "data": {},
                                               "redacted": True}
    assert token.encode() not in bytes(row["payload_enc"]) and token not in record["Subject"]
    # The link in the delivered e-mail is the live one.
    verified = await client.post("/v1/auth/verify", json={"token": token})
    assert verified.status_code == 200 and verified.json()["user"]["email_verified"] is True


async def _sent(address: str) -> dict | None:
    row = await outbox_row(address)
    return row if row["sent_at"] is not None else None


async def test_a_platform_outage_delays_the_email_and_it_is_sent_once(client, services, roles, tmp_path):
    port = free_port()  # nothing listens here until the platform starts below
    roles("scheduler")
    roles("worker", PLATFORM_URL=f"http://127.0.0.1:{port}")
    email = unique_email("outage")
    created = await client.post("/v1/users", json={"email": email, "password": PASSWORD})
    assert created.status_code == 201, created.text

    async def retried() -> dict | None:
        row = await outbox_row(email)
        return row if row["attempts"] >= 2 else None

    row = await until(retried, 30, "two failed attempts")
    assert row["sent_at"] is None and "Connect" in row["last_error"]
    assert sink_records(services.sink_dir, email) == []

    platform = Server("platform", {**services.env, "PLATFORM_PORT": str(port),
                                   "PLATFORM_URL": f"http://127.0.0.1:{port}"}, tmp_path / "platform", port)
    try:
        sent = await until(lambda: _sent(email), 40, "the e-mail sent once the platform is back")
        await until(lambda: asyncio.sleep(0, sink_records(services.sink_dir, email)), 30, "the e-mail in the sink")
        records = sink_records(services.sink_dir, email)
        assert len(records) == 1 and records[0]["MessageId"] == sent["message_id"]
        # Sent is final (the actor posts only while the row is unsent, under its lease): every post
        # the outage caused reached the platform as the same idempotent request, one message.
        messages = await connections.get("platform").execute_query_dict(
            "SELECT public_id FROM messages WHERE recipient = $1", [email])
        assert [m["public_id"] for m in messages] == [sent["message_id"]]
        assert sent["attempts"] > row["attempts"]
    finally:
        platform.stop()


async def test_without_the_key_rows_wait(client, services):
    from kit.settings import load_settings
    from schedules.identity.mail import enqueue_job

    email = unique_email("nokey")
    created = await client.post("/v1/users", json={"email": email, "password": PASSWORD})
    assert created.status_code == 201
    before = await outbox_row(email)
    # Due again (a worker without the key put it back): a scheduler without the key hands it nothing.
    await connections.get("identity").execute_query(
        "UPDATE emails SET enqueued_at = NULL, next_attempt_at = NULL WHERE id = $1 AND sent_at IS NULL", [before["id"]])
    woken = []
    runtime = SimpleNamespace(settings=load_settings({**services.env, "IDENTITY_MAIL_KEY": ""}),
                              wakeup=lambda system="platform": woken.append(system))
    await enqueue_job(runtime)
    row = await outbox_row(email)
    assert row["enqueued_at"] is None and row["sent_at"] is None and woken == []


async def test_two_claimers_hand_each_row_over_once():
    from kit.actors import Actor
    from models.identity.email import queue_email
    from schedules.identity.mail import enqueue_due

    identity = connections.get("identity")
    async with in_transaction("identity") as conn:
        rows = [await queue_email(conn, "verify", unique_email("claim"), "s", "t") for _ in range(40)]
    ids = [row.id for row in rows]
    # Due again: handed over long ago and never sent (a lost message).
    await identity.execute_query("UPDATE emails SET enqueued_at = now() - interval '1 hour' "
                                 "WHERE id = ANY($1::bigint[])", [ids])
    [last] = await identity.execute_query_dict("SELECT coalesce(max(id), 0) AS id FROM outbox")
    counts = await asyncio.gather(enqueue_due(only=ids), enqueue_due(only=ids), enqueue_due(only=ids))
    assert sum(counts) == 40
    handed = await identity.execute_query_dict(
        "SELECT (args->>0)::bigint AS id FROM outbox WHERE id > $1 AND actor = $2 "
        "AND (args->>0)::bigint = ANY($3::bigint[])", [last["id"], Actor.IDENTITY_MAIL_SEND.name, ids])
    assert sorted(row["id"] for row in handed) == sorted(ids)
    # Handed over: the next run leaves them alone.
    assert await enqueue_due(only=ids) == 0


async def test_an_outage_is_retried_on_the_backoff_for_as_long_as_it_lasts(services):
    """Identity e-mail as an instance of the lease pipeline: 1 s, 2 s, 4 s ... at most 5 minutes
    (10 % jitter) between tries, and never given up, however many tries an outage takes."""
    import dramatiq

    from kit.settings import load_settings
    from models.identity.email import queue_email
    from tasks.identity.mail import send

    settings = load_settings({**services.env, "IDENTITY_MAIL_KEY": "hk_test_unused", "IDENTITY_MAIL_FROM":
                              "auth@example.com", "PLATFORM_URL": f"http://127.0.0.1:{free_port()}"})
    identity = connections.get("identity")
    async with in_transaction("identity") as conn:
        row = await queue_email(conn, "verify", unique_email("backoff"), "s", "t")
    waits = {}
    for attempts_before in (0, 1, 2, 3, 9, 40):
        await identity.execute_query("UPDATE emails SET attempts = $2, next_attempt_at = NULL WHERE id = $1",
                                     [row.id, attempts_before])
        with pytest.raises(dramatiq.Retry):
            await send(row.id, settings)
        [after] = await identity.execute_query_dict(
            "SELECT attempts, sent_at, lease_until, last_error, "
            "extract(epoch FROM next_attempt_at - now()) AS wait FROM emails WHERE id = $1", [row.id])
        assert after["attempts"] == attempts_before + 1 and after["sent_at"] is None and after["lease_until"] is None
        assert after["last_error"].startswith("ConnectError")
        waits[after["attempts"]] = float(after["wait"])
    for attempt, wait in waits.items():
        low = min(2 ** (attempt - 1), 300)
        assert low - 1 <= wait <= low * 1.1 + 1, (attempt, wait)
    # Not due before its wait is over: a duplicate job does nothing.
    assert await send(row.id, settings) == "skipped"


async def test_a_secret_in_the_subject_is_refused():
    from models.identity.email import SecretInSubject, queue_email

    async with in_transaction("identity") as conn:
        with pytest.raises(SecretInSubject):
            await queue_email(conn, "2fa_code", unique_email("subject"), "Your code: 123456", "Your code is 123456.",
                              data={"code": "123456"})
        with pytest.raises(SecretInSubject):
            await queue_email(conn, "reset", unique_email("subject"), "Reset: hpr_abc",
                              "https://x/reset?token=hpr_abc", data={"token": "hpr_abc"})


async def test_the_email_job_of_a_sign_up_writes_the_sign_ups_request_id(client, servers, services, roles):
    """The identity's request id reaches its e-mail job's log lines: the identity outbox row carries
    it, its relay hands it to the worker (docs/observability.md: following one request)."""
    from tests.herald.test_process_logs import json_lines

    servers("platform")
    roles("scheduler")
    worker = roles("worker", LOG_FORMAT="json", LOG_LEVEL="DEBUG")
    email = unique_email("trail")
    created = await client.post("/v1/users", json={"email": email, "password": PASSWORD, "name": "Trail"})
    assert created.status_code == 201, created.text
    request_id = created.headers["X-Request-Id"]
    await until(lambda: asyncio.sleep(0, sink_records(services.sink_dir, email)), 40, "the e-mail in the sink")
    row = await outbox_row(email)

    def sent_lines() -> list[dict]:
        wanted = f"identity e-mail {row['id']}: sent"
        return [line for line in json_lines(worker.log.read_text())
                if line["logger"] == "herald.identity_mail" and line["message"] == wanted]

    [line] = await until(lambda: asyncio.sleep(0, sent_lines()), 20, "the e-mail job's line")
    assert line["actor"] == "identity_mail.send" and line["role"] == "worker" and line["job"]
    assert line["request_id"] == request_id
