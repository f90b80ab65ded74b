"""Routing with click deltas, and A/B experiments: the first variant creates the experiment in
draft; start needs weights summing to 100; promote concludes with the winner published; auto-stop
accepted only while running; visitors assigned deterministically."""

from __future__ import annotations

from models.pages.page import stop_rule_met
from models.pages import Variant
from models.pages.page import assign_variant
from tests.pages.conftest import new_page


async def test_routing_holds_up_to_twenty_weighted_destinations_and_sums_click_deltas(pages, account, service):
    page = await new_page(pages, account.headers)
    path = f"/v1/paginas/{page['Id']}/roteamento"
    assert (await pages.get(path, headers=account.headers)).json()["Roteamento"]["Destinos"] == []
    body = {"Destinations": [{"Url": "https://a.example.com", "Weight": 70},
                             {"Url": "https://b.example.com", "Weight": 30,
                              "Rules": {"Countries": ["BR"], "Devices": ["mobile"], "Hours": {"From": 8, "To": 20}}}]}
    put = await pages.put(path, headers=account.headers, json=body)
    assert put.status_code == 200, put.text
    destinations = put.json()["Roteamento"]["Destinos"]
    assert [d["Weight"] for d in destinations] == [70, 30] and destinations[1]["Rules"]["Countries"] == ["BR"]

    not_100 = await pages.put(path, headers=account.headers,
                              json={"Destinations": [{"Url": "https://a.example.com", "Weight": 50}]})
    assert not_100.status_code == 400
    too_many = await pages.put(path, headers=account.headers, json={"Destinations": [
        {"Url": f"https://d{i}.example.com", "Weight": 5 if i < 19 else 0} for i in range(21)]})
    assert too_many.status_code == 400

    first, second = destinations[0]["Id"], destinations[1]["Id"]
    flush = await pages.post(f"/internal/v1/paginas/{page['Id']}/cliques", headers=service,
                             json={"Deltas": [{"DestinationId": first, "Count": 5},
                                              {"DestinationId": second, "Count": 2},
                                              {"DestinationId": first, "Count": 1}]})
    assert flush.status_code == 200 and flush.json()["Counted"] == 2
    over = await pages.post(f"/internal/v1/paginas/{page['Id']}/cliques", headers=service,
                            json={"Deltas": [{"DestinationId": first, "Count": 1}] * 21})
    assert over.status_code == 400
    clicks = (await pages.get(f"/v1/paginas/{page['Id']}/cliques", headers=account.headers)).json()
    assert clicks["Total"] == 8 and [d["Clicks"] for d in clicks["Destinos"]] == [6, 2]

    # Setting the routing again keeps a destination (and its clicks) by URL.
    again = await pages.put(path, headers=account.headers,
                            json={"Destinations": [{"Url": "https://a.example.com", "Weight": 100}]})
    assert again.json()["Roteamento"]["Destinos"][0] | {"Weight": 0} == {**destinations[0], "Clicks": 6, "Weight": 0}
    assert (await pages.delete(path, headers=account.headers)).status_code == 204
    assert (await pages.get(path, headers=account.headers)).json()["Roteamento"]["Destinos"] == []


async def test_an_ab_test_is_started_at_50_50_and_its_winner_promoted(pages, account, service):
    page = await new_page(pages, account.headers)
    experiment_path = f"/v1/paginas/{page['Id']}/experimento"
    none = await pages.get(experiment_path, headers=account.headers)
    assert none.status_code == 200 and none.json()["Experimento"]["Variantes"] == []
    assert none.json()["Experimento"]["Status"] is None
    assert (await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=account.headers)).status_code == 409

    variants = f"/v1/paginas/{page['Id']}/variantes"
    a = await pages.post(variants, headers=account.headers, json={"Name": "A", "Weight": 50})
    assert a.status_code == 201 and a.json()["Variante"]["Blocks"] == page["Blocks"]
    assert (await pages.get(experiment_path, headers=account.headers)).json()["Experimento"]["Status"] == "rascunho"
    b = await pages.post(variants, headers=account.headers,
                         json={"Name": "B", "Weight": 40, "Blocks": [{"Type": "heading", "Text": "B wins"}]})
    assert b.status_code == 201
    uneven = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=account.headers)
    assert uneven.status_code == 422 and "100" in uneven.json()["Error"]["Message"]
    early = await pages.put(f"{experiment_path}/auto-stop", headers=account.headers, json={"Enabled": True})
    assert early.status_code == 409

    # Weights are fixed in draft by adding variants: start over on a fresh page with 50/50.
    page = await new_page(pages, account.headers, slug="ab-5050")
    variants = f"/v1/paginas/{page['Id']}/variantes"
    experiment_path = f"/v1/paginas/{page['Id']}/experimento"
    a = (await pages.post(variants, headers=account.headers, json={"Name": "A", "Weight": 50})).json()["Variante"]
    b = (await pages.post(variants, headers=account.headers,
                          json={"Name": "B", "Weight": 50, "Blocks": [{"Type": "heading", "Text": "B wins"}]})
         ).json()["Variante"]
    started = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=account.headers)
    assert started.status_code == 200 and started.json()["Experimento"]["Status"] == "rodando"
    late = await pages.post(variants, headers=account.headers, json={"Name": "C", "Weight": 0})
    assert late.status_code == 409
    stop = await pages.put(f"{experiment_path}/auto-stop", headers=account.headers,
                           json={"Enabled": True, "MinViewsPerVariant": 100, "Confidence": 0.95})
    assert stop.status_code == 200 and stop.json()["Experimento"]["AutoStop"]["Confidence"] == 0.95

    events = await pages.post(f"/internal/v1/paginas/{page['Id']}/experimento/eventos", headers=service,
                              json={"Deltas": [{"VariantId": a["Id"], "Views": 200, "Conversions": 10},
                                               {"VariantId": b["Id"], "Views": 200, "Conversions": 40}]})
    assert events.status_code == 200 and events.json()["Counted"] == 2

    promoted = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=account.headers, json={})
    assert promoted.status_code == 200, promoted.text
    body = promoted.json()["Experimento"]
    assert body["Status"] == "concluido" and body["WinnerId"] == b["Id"]
    live = (await pages.get(f"/v1/paginas/{page['Id']}", headers=account.headers)).json()["Pagina"]
    assert live["Blocks"] == [{"Type": "heading", "Text": "B wins", "Level": 2}] and live["PublishedVersion"] == 1
    assert (await pages.get(experiment_path, headers=account.headers)).json()["Experimento"]["WinnerId"] == b["Id"]


async def test_promotion_needs_pages_publish(pages, make_account):
    writer = await make_account(scopes=("pages:read", "pages:write"))
    page = await new_page(pages, writer.headers)
    refused = await pages.post(f"/v1/paginas/{page['Id']}/ab/promover", headers=writer.headers)
    assert refused.status_code == 403 and "pages:publish" in refused.json()["Error"]["Message"]


def test_visitors_are_assigned_deterministically_by_weight():
    weights = [("var_a", 50), ("var_b", 50)]
    seen = {visitor: assign_variant("exp_1", visitor, weights) for visitor in (f"v{i}" for i in range(2000))}
    assert all(assign_variant("exp_1", visitor, weights) == variant for visitor, variant in seen.items())
    share = sum(variant == "var_a" for variant in seen.values()) / len(seen)
    assert 0.45 < share < 0.55
    assert {assign_variant("exp_1", f"v{i}", [("var_a", 100), ("var_b", 0)]) for i in range(200)} == {"var_a"}


def test_the_auto_stop_rule_waits_for_enough_views_and_a_significant_difference():
    rule = {"Enabled": True, "MinViewsPerVariant": 100, "Confidence": 0.95}

    def variants(a: tuple[int, int], b: tuple[int, int]) -> list[Variant]:
        return [Variant(id=1, public_id="var_a", views=a[0], conversions=a[1], weight=50),
                Variant(id=2, public_id="var_b", views=b[0], conversions=b[1], weight=50)]

    assert stop_rule_met(variants((99, 5), (200, 50)), rule) is None  # too few views
    assert stop_rule_met(variants((200, 20), (200, 22)), rule) is None  # not significant
    assert stop_rule_met(variants((200, 10), (200, 40)), rule).public_id == "var_b"
    assert stop_rule_met(variants((200, 10), (200, 40)), {**rule, "Enabled": False}) is None
