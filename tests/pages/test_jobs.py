"""The pages system's scheduled work, called directly as the scheduler and the workers call it:
the schedules write outbox rows in the pages database for what is due; the actors' functions
re-verify a custom domain and conclude an experiment whose auto-stop rule is met."""

from __future__ import annotations

import secrets

from tortoise import connections

from kit.actors import Actor
from models.pages import CustomDomain, Experiment
from schedules.pages.domains import enqueue_due_checks
from schedules.pages.experiments import enqueue_due
from tasks.pages.domains import verify
from tasks.pages.experiments import evaluate
from tests.pages.conftest import new_page


async def queued(actor, pk: int) -> int:
    rows = await connections.get("pages").execute_query_dict(
        "SELECT count(*) AS n FROM outbox WHERE actor = $1 AND args = jsonb_build_array($2::bigint)", [actor.name, pk])
    return rows[0]["n"]


async def test_an_unverified_domain_is_rechecked_and_turns_verified(pages, account, dns_server):
    name = f"job-{secrets.token_hex(4)}.example.com"
    made = (await pages.post("/v1/dominios", headers=account.headers, json={"Name": name})).json()["Dominio"]
    pk = (await CustomDomain.get(public_id=made["Id"])).id
    await enqueue_due_checks()
    assert await queued(Actor.PAGES_DOMAIN_VERIFY, pk) == 0  # added just now: due after RECHECK_PENDING_SECONDS
    await connections.get("pages").execute_query(
        "UPDATE custom_domains SET created_at = now() - interval '11 minutes' WHERE id = $1", [pk])
    await enqueue_due_checks()
    assert await queued(Actor.PAGES_DOMAIN_VERIFY, pk) == 1
    await enqueue_due_checks()
    assert await queued(Actor.PAGES_DOMAIN_VERIFY, pk) == 1  # not twice while the job is recent

    assert await verify(pk, nameservers=(dns_server.address,)) == "absent"
    dns_server.publish(made["Record"]["Name"], "TXT", made["Record"]["Value"])
    assert await verify(pk, nameservers=(dns_server.address,)) == "verified"
    read = (await pages.get(f"/v1/dominios/{made['Id']}", headers=account.headers)).json()["Dominio"]
    assert read["Verified"] and read["LastCheck"]["Outcome"] == "verified"

    dns_server.remove(made["Record"]["Name"], "TXT")
    assert await verify(pk, nameservers=(dns_server.address,)) == "absent"
    read = (await pages.get(f"/v1/dominios/{made['Id']}", headers=account.headers)).json()["Dominio"]
    assert read["Verified"] and read["LastCheck"]["Outcome"] == "absent"  # only deletion withdraws


async def test_a_running_experiment_with_auto_stop_is_concluded_when_its_rule_is_met(pages, account, service):
    page = await new_page(pages, account.headers, slug=f"auto-{secrets.token_hex(3)}")
    variants = f"/v1/paginas/{page['Id']}/variantes"
    a = (await pages.post(variants, headers=account.headers, json={"Name": "A", "Weight": 50})).json()["Variante"]
    b = (await pages.post(variants, headers=account.headers,
                          json={"Name": "B", "Weight": 50, "Blocks": [{"Type": "text", "Text": "B"}]})
         ).json()["Variante"]
    started = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=account.headers)
    experiment_id = started.json()["Experimento"]["Id"]
    pk = (await Experiment.get(public_id=experiment_id)).id

    await enqueue_due()
    assert await queued(Actor.PAGES_EXPERIMENT_EVALUATE, pk) == 0  # auto-stop not set
    await pages.put(f"/v1/paginas/{page['Id']}/experimento/auto-stop", headers=account.headers,
                    json={"Enabled": True, "MinViewsPerVariant": 100, "Confidence": 0.99})
    await enqueue_due()
    assert await queued(Actor.PAGES_EXPERIMENT_EVALUATE, pk) == 1

    assert await evaluate(pk) is False  # no views yet
    await pages.post(f"/internal/v1/paginas/{page['Id']}/experimento/eventos", headers=service,
                     json={"Deltas": [{"VariantId": a["Id"], "Views": 500, "Conversions": 20},
                                      {"VariantId": b["Id"], "Views": 500, "Conversions": 60}]})
    assert await evaluate(pk) is True
    experiment = (await pages.get(f"/v1/paginas/{page['Id']}/experimento", headers=account.headers)).json()
    assert experiment["Experimento"]["Status"] == "concluido" and experiment["Experimento"]["WinnerId"] == b["Id"]
    live = (await pages.get(f"/v1/paginas/{page['Id']}", headers=account.headers)).json()["Pagina"]
    assert live["Status"] == "publicado" and live["Blocks"] == [{"Type": "text", "Text": "B"}]
    assert await evaluate(pk) is False  # a repeat is harmless
