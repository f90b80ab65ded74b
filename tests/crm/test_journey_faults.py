"""A worker SIGKILLed mid-journey loses no step and repeats no send.

The CRM's relay and a worker on the ``crm`` queue run on a Redis database of their own, so no
other worker of the session can take these jobs. Sixty contacts enter a three-send journey; the
worker is killed (its whole process group) once some steps are recorded and while it still holds
jobs; a new worker is started. Dramatiq hands the dead worker's jobs back (heartbeat, tasks/wake.py),
the enrollment's row lock was released with its connection, and each repeated send reaches the
platform with the same idempotency key: in the end every enrollment has exactly its three steps
recorded, and the platform holds exactly one message per (enrollment, step).
"""

from __future__ import annotations

import asyncio
import secrets
import time

import pytest
import redis

from models.crm import Enrollment, EnrollmentStep
from models.platform import Message
from tests.fixtures.harness import Process, Services, flush_redis
from tests.fixtures.platform import make_account  # noqa: F401

pytestmark = pytest.mark.slow

CONTACTS = 60
STEPS = ("ola", "sms", "despedida")


async def until(predicate, seconds: float, what: str, roles=()) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.05)
    logs = "\n".join(role.log.read_text()[-3000:] for role in roles)
    raise AssertionError(f"not within {seconds} s: {what}\n{logs}")


async def test_a_worker_killed_mid_journey_loses_no_step_and_repeats_no_send(crm, act, make_account,  # noqa: F811
                                                                             platform, services, tmp_path):
    redis_url = Services._redis_database(services.redis_url)
    env = {**services.env, "REDIS_URL": redis_url, "RELAY_SYSTEMS": "crm", "WORKER_THREADS": "4"}
    log_dir = tmp_path / "logs"
    roles: list[Process] = []
    try:
        account = await make_account()
        owner = await act("admin", tenant=account.tenant_id)
        entry = (await crm.post("/v1/listas", headers=owner.headers,
                                json={"nome": f"Falhas {secrets.token_hex(3)}"})).json()["lista"]
        journey = (await crm.post("/v1/jornadas", headers=owner.headers, json={
            "nome": "Três envios", "gatilho": {"tipo": "lista", "lista_id": entry["id"]},
            "passos": [{"id": "ola", "tipo": "enviar", "canal": "email", "de": "oi@sandbox.herald.test",
                        "assunto": "Olá", "texto": "Primeiro"},
                       {"id": "sms", "tipo": "enviar", "canal": "sms", "texto": "Segundo"},
                       {"id": "despedida", "tipo": "enviar", "canal": "email", "de": "oi@sandbox.herald.test",
                        "assunto": "Tchau", "texto": "Terceiro"}]})).json()["jornada"]
        assert (await crm.put(f"/v1/jornadas/{journey['id']}/ativa", headers=owner.headers,
                              json={"ativa": True})).status_code == 200
        tag = secrets.token_hex(3)
        bulk = await crm.post("/v1/contatos/lote", headers=owner.headers, json={"contatos": [
            {"email": f"k-{tag}-{i}@example.com", "telefone": f"+1415{secrets.randbelow(10**7):07d}"}
            for i in range(CONTACTS)]})
        assert bulk.status_code == 200 and bulk.json()["criados"] == CONTACTS, bulk.text[:300]
        ids = [c["id"] for c in (await crm.get("/v1/contatos", headers=owner.headers,
                                               params={"limit": 100})).json()["contatos"]]
        assert len(ids) == CONTACTS
        added = await crm.post(f"/v1/listas/{entry['id']}/membros", headers=owner.headers, json={"contatos": ids})
        assert added.status_code == 200 and added.json()["adicionados"] == CONTACTS, added.text

        def steps_done():
            return EnrollmentStep.filter(enrollment__journey__public_id=journey["id"]).count()

        roles.append(Process("crm-scheduler", ["scheduler"], env, log_dir))
        worker = Process("crm-worker", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir)
        roles.append(worker)

        async def some_steps():
            return await steps_done() >= 20

        await until(some_steps, 90, "first steps", roles)
        worker.kill()
        at_kill = await steps_done()
        assert at_kill < CONTACTS * len(STEPS), "the worker finished before it could be killed"
        broker = redis.Redis.from_url(redis_url)
        held = [key for key in broker.scan_iter("dramatiq:__acks__.*") if broker.scard(key)]
        broker.close()
        assert held, "the worker held no job when it was killed"
        roles.append(Process("crm-worker-2", ["worker", "--processes", "1", "--queues", "crm"], env, log_dir))

        async def all_done():
            states = await Enrollment.filter(journey__public_id=journey["id"]).values_list("state", flat=True)
            return len(states) == CONTACTS and set(states) == {"concluida"}

        await until(all_done, 120, "every enrollment finished after the kill", roles)
    finally:
        for role in roles:
            role.stop()
        flush_redis(redis_url)

    enrollments = await Enrollment.filter(journey__public_id=journey["id"])
    for enrollment in enrollments:
        rows = await EnrollmentStep.filter(enrollment_id=enrollment.id).order_by("ordinal")
        assert [(row.ordinal, row.step_id, row.outcome) for row in rows] == [
            (1, "ola", "concluido"), (2, "sms", "concluido"), (3, "despedida", "concluido")], enrollment.public_id
        assert enrollment.executed == 3 and enrollment.position == 3
    keys = [f"crm-jrn:{enrollment.public_id}:{step}" for enrollment in enrollments for step in STEPS]
    messages = await Message.filter(idempotency_key__in=keys).values_list("idempotency_key", flat=True)
    assert sorted(messages) == sorted(keys)  # one message per (enrollment, step): none lost, none twice
