"""The dashboard's contacts and lists over HTTP, with the platform, the identity server and the
CRM really running: the platform serves /api/contacts and /api/lists through the CRM's internal
routes (docs/crm.md, "Through the dashboard"), in the dashboard's PascalCase; another account's
list is the same 404 as a missing one; a CRM that does not answer is 502."""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member
from tests.fixtures.harness import free_port


@pytest.fixture
async def desk(servers, dashboard):
    """The dashboard with the CRM running behind it."""
    servers("crm")
    return dashboard


async def owner_and_account(desk, identity, tag: str):
    owner = await signed_in_member(identity, desk, tag)
    account = await new_account(desk, owner, f"Account {tag}")
    return owner, account, {**owner.auth, "X-Service-Tenant": account["Id"]}


def email(tag: str) -> str:
    return f"{tag}-{secrets.token_hex(4)}@example.com"


async def test_create_list_and_find_contacts(desk, identity):
    _, _, headers = await owner_and_account(desk, identity, "audcontact")
    address = email("ana")
    made = await desk.post("/api/contacts", headers=headers, json={
        "Email": f"  {address.upper()} ", "Phone": "+55 (11) 98765-4321", "Name": "Ana",
        "Attributes": {"plan": "gold", "seats": 3}})
    assert made.status_code == 201, made.text
    contact = made.json()["Contact"]
    assert contact["Id"].startswith("ctt_") and contact["Email"] == address and contact["Phone"] == "+5511987654321"
    assert contact["Subscribed"] is True and contact["Name"] == "Ana" and contact["AnonymizedAt"] is None
    assert contact["Attributes"] == {"plan": "gold", "seats": 3} and contact["CreatedAt"].endswith("Z")
    assert "RequestId" in made.json()

    # The same e-mail again is the same contact (upsert by natural identity); Subscribed is kept
    # unless given.
    again = await desk.post("/api/contacts", headers=headers, json={"Email": address, "Subscribed": False,
                                                                    "ExternalId": "crm-42"})
    assert again.status_code == 201, again.text
    assert again.json()["Contact"]["Id"] == contact["Id"] and again.json()["Contact"]["Subscribed"] is False
    kept = await desk.post("/api/contacts", headers=headers, json={"ExternalId": "crm-42", "Name": "Ana B."})
    assert kept.json()["Contact"]["Subscribed"] is False and kept.json()["Contact"]["Name"] == "Ana B."

    other = await desk.post("/api/contacts", headers=headers, json={"ExternalId": "only-external"})
    assert other.status_code == 201 and other.json()["Contact"]["Email"] is None

    listed = await desk.get("/api/contacts", headers=headers)
    assert listed.status_code == 200, listed.text
    assert [row["Id"] for row in listed.json()["Contacts"]] == [other.json()["Contact"]["Id"], contact["Id"]]
    assert listed.json()["HasMore"] is False and listed.json()["NextCursor"] is None
    for q in (address.upper(), "+5511987654321", "crm-42"):
        found = await desk.get("/api/contacts", params={"q": q}, headers=headers)
        assert [row["Id"] for row in found.json()["Contacts"]] == [contact["Id"]], (q, found.text)
    assert (await desk.get("/api/contacts", params={"q": email("nobody")}, headers=headers)).json()["Contacts"] == []

    first = await desk.get("/api/contacts", params={"limit": 1}, headers=headers)
    assert first.json()["HasMore"] is True and first.json()["NextCursor"]
    second = await desk.get("/api/contacts", params={"limit": 1, "cursor": first.json()["NextCursor"]},
                            headers=headers)
    assert [row["Id"] for row in second.json()["Contacts"]] == [contact["Id"]] and second.json()["HasMore"] is False


async def test_contact_refusals(desk, identity):
    _, _, headers = await owner_and_account(desk, identity, "audrefuse")
    for body, field in (({"Email": "not-an-address"}, "Email"), ({"Phone": "12"}, "Phone"),
                        ({"Name": "no identifier"}, "Email"), ({"ExternalId": "   "}, "Email")):
        refused = await desk.post("/api/contacts", headers=headers, json=body)
        assert refused.status_code == 422, (body, refused.text)
        error = refused.json()["Error"]
        assert error["Code"] == "ValidationError" and field in error["Details"], (body, error)
        assert "telefone" not in error["Message"] and "email is" not in error["Message"]
    first, second = email("clash"), "+14155550177"
    assert (await desk.post("/api/contacts", headers=headers, json={"Email": first})).status_code == 201
    assert (await desk.post("/api/contacts", headers=headers, json={"Phone": second})).status_code == 201
    clash = await desk.post("/api/contacts", headers=headers, json={"Email": first, "Phone": second})
    assert clash.status_code == 409 and clash.json()["Error"]["Code"] == "Conflict", clash.text
    unknown = await desk.post("/api/contacts", headers=headers, json={"Email": email("x"), "email": "y"})
    assert unknown.status_code == 400 and "email" in unknown.json()["Error"]["Details"]
    not_bool = await desk.post("/api/contacts", headers=headers, json={"Email": email("x"), "Subscribed": "yes"})
    assert not_bool.status_code == 400 and "Subscribed" in not_bool.json()["Error"]["Details"]
    attributes = await desk.post("/api/contacts", headers=headers,
                                 json={"Email": email("x"), "Attributes": {"nested": {"no": 1}}})
    assert attributes.status_code == 400 and "Attributes" in attributes.json()["Error"]["Details"], attributes.text

    for params in ({"limit": "0"}, {"limit": "x"}, {"limit": "201"}, {"q": "a\x01b"}):
        assert (await desk.get("/api/contacts", params=params, headers=headers)).status_code == 422, params
    forged = await desk.get("/api/contacts", params={"cursor": "forged"}, headers=headers)
    assert forged.status_code == 400 and forged.json()["Error"]["Code"] == "ValidationError"
    assert (await desk.get("/api/contacts", params={"list_id": "lst_" + "0" * 24}, headers=headers)).status_code == 404
    assert (await desk.get("/api/contacts", params={"list_id": "nope"}, headers=headers)).status_code == 404
    assert (await desk.get("/api/contacts", params={"other": "1"}, headers=headers)).status_code == 422


async def test_bulk_upsert_with_errors_by_source_index(desk, identity):
    _, _, headers = await owner_and_account(desk, identity, "audbulk")
    known = email("known")
    assert (await desk.post("/api/contacts", headers=headers, json={"Email": known})).status_code == 201
    items = [{"Email": email(f"b{i}"), "Attributes": {"n": i}} for i in range(20)]
    items[3] = {"Email": "broken"}                       # refused by the CRM
    items[7] = {"Email": email("x"), "Colour": "red"}    # unknown field, refused by the platform
    items[9] = "not an object"
    items[12] = {"Email": known, "Name": "Known"}        # an update
    items[15] = {"Phone": "+14155550100"}
    answer = await desk.post("/api/contacts/bulk", headers=headers, json={"Contacts": items})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["Created"], body["Updated"]) == (16, 1)
    assert [error["Index"] for error in body["Errors"]] == [3, 7, 9]
    broken, unknown, not_object = body["Errors"]
    assert broken["Code"] == "ValidationError" and "Email" in broken["Details"] and "email is" not in broken["Message"]
    assert "Colour" in unknown["Details"] and "Contact" in not_object["Details"]
    assert body["Created"] + body["Updated"] + len(body["Errors"]) == len(items)

    repeat = await desk.post("/api/contacts/bulk", headers=headers, json={"Contacts": items})
    assert (repeat.json()["Created"], repeat.json()["Updated"]) == (0, 17)
    listed = await desk.get("/api/contacts", params={"limit": 200}, headers=headers)
    assert len(listed.json()["Contacts"]) == 17  # the known one and the 16 made

    only_bad = await desk.post("/api/contacts/bulk", headers=headers, json={"Contacts": [{"Nope": 1}]})
    assert only_bad.status_code == 200 and only_bad.json()["Created"] == 0
    assert [error["Index"] for error in only_bad.json()["Errors"]] == [0]
    empty = await desk.post("/api/contacts/bulk", headers=headers, json={"Contacts": []})
    assert empty.status_code == 422 and "Contacts" in empty.json()["Error"]["Details"]
    above = await desk.post("/api/contacts/bulk", headers=headers,
                            json={"Contacts": [{"ExternalId": str(i)} for i in range(5001)]})
    assert above.status_code == 422 and "Contacts" in above.json()["Error"]["Details"]


async def test_bulk_of_5000(desk, identity):
    _, _, headers = await owner_and_account(desk, identity, "audbulk5k")
    tag = secrets.token_hex(3)
    items = [{"Email": f"p{i}-{tag}@example.com", "ExternalId": f"{tag}-{i}"} for i in range(5000)]
    answer = await desk.post("/api/contacts/bulk", headers=headers, json={"Contacts": items}, timeout=60)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["Created"], answer.json()["Updated"], answer.json()["Errors"]) == (5000, 0, [])


async def test_lists_upsert_count_and_members(desk, identity):
    _, _, headers = await owner_and_account(desk, identity, "audlists")
    first = await desk.post("/api/lists", headers=headers, json={"Name": "Clientes Ouro"})
    assert first.status_code == 201, first.text
    made = first.json()["List"]
    assert made["Id"].startswith("lst_") and made["Slug"] == "clientes-ouro" and made["MemberCount"] == 0
    renamed = await desk.post("/api/lists", headers=headers, json={"Name": "Ouro", "Slug": "clientes-ouro"})
    assert renamed.status_code == 201
    assert renamed.json()["List"]["Id"] == made["Id"] and renamed.json()["List"]["Name"] == "Ouro"
    assert (await desk.post("/api/lists", headers=headers, json={"Name": ""})).status_code == 400
    assert (await desk.post("/api/lists", headers=headers, json={"Name": "x", "Slug": "Bad Slug"})).status_code == 400

    ids = [(await desk.post("/api/contacts", headers=headers, json={"Email": email(f"m{i}")})).json()["Contact"]["Id"]
           for i in range(3)]
    ghost = "ctt_" + "0" * 24
    added = await desk.post(f"/api/lists/{made['Id']}/members", headers=headers, json={"ContactIds": ids + [ghost]})
    assert added.status_code == 200, added.text
    assert (added.json()["Added"], added.json()["NotFound"]) == (3, [ghost])
    again = await desk.post(f"/api/lists/{made['Id']}/members", headers=headers, json={"ContactIds": ids})
    assert again.status_code == 200 and (again.json()["Added"], again.json()["NotFound"]) == (0, [])
    empty = await desk.post(f"/api/lists/{made['Id']}/members", headers=headers, json={"ContactIds": []})
    assert empty.status_code == 422 and "ContactIds" in empty.json()["Error"]["Details"]

    second = (await desk.post("/api/lists", headers=headers, json={"Name": "Prata"})).json()["List"]
    listed = await desk.get("/api/lists", headers=headers)
    assert listed.status_code == 200, listed.text
    assert [(row["Id"], row["MemberCount"]) for row in listed.json()["Lists"]] == [(second["Id"], 0), (made["Id"], 3)]
    page = await desk.get("/api/lists", params={"limit": 1}, headers=headers)
    assert page.json()["HasMore"] is True
    rest = await desk.get("/api/lists", params={"limit": 1, "cursor": page.json()["NextCursor"]}, headers=headers)
    assert [row["Id"] for row in rest.json()["Lists"]] == [made["Id"]]

    members = await desk.get("/api/contacts", params={"list_id": made["Id"]}, headers=headers)
    assert sorted(row["Id"] for row in members.json()["Contacts"]) == sorted(ids)
    assert (await desk.post("/api/lists/nope/members", headers=headers, json={"ContactIds": ids})).status_code == 404


async def test_another_accounts_list_and_contacts(desk, identity):
    owner, account, headers = await owner_and_account(desk, identity, "audmine")
    stranger, other, theirs_headers = await owner_and_account(desk, identity, "audtheirs")
    theirs = (await desk.post("/api/lists", headers=theirs_headers, json={"Name": "Deles"})).json()["List"]
    their_contact = (await desk.post("/api/contacts", headers=theirs_headers,
                                     json={"Email": email("their")})).json()["Contact"]["Id"]
    mine = (await desk.post("/api/contacts", headers=headers, json={"Email": email("mine")})).json()["Contact"]["Id"]

    foreign = await desk.post(f"/api/lists/{theirs['Id']}/members", headers=headers, json={"ContactIds": [mine]})
    missing = await desk.post(f"/api/lists/lst_{'0' * 24}/members", headers=headers, json={"ContactIds": [mine]})
    assert foreign.status_code == missing.status_code == 404, foreign.text
    assert foreign.json()["Error"]["Code"] == missing.json()["Error"]["Code"] == "NotFound"
    assert (await desk.get("/api/contacts", params={"list_id": theirs["Id"]}, headers=headers)).status_code == 404

    own = (await desk.post("/api/lists", headers=headers, json={"Name": "Minha"})).json()["List"]
    crossing = await desk.post(f"/api/lists/{own['Id']}/members", headers=headers,
                               json={"ContactIds": [their_contact, mine]})
    assert (crossing.json()["Added"], crossing.json()["NotFound"]) == (1, [their_contact])
    seen = await desk.get("/api/contacts", headers=headers)
    assert [row["Id"] for row in seen.json()["Contacts"]] == [mine]
    assert [row["Id"] for row in (await desk.get("/api/lists", headers=headers)).json()["Lists"]] == [own["Id"]]

    # Another account named in the header is the 404 of the gate; a person without any is NoTenant.
    assert (await desk.get("/api/contacts", headers={**owner.auth, "X-Service-Tenant": other["Id"]})).status_code == 404
    lonely = await signed_in_member(identity, desk, "audlonely")
    refused = await desk.get("/api/lists", headers=lonely.auth)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "NoTenant"
    assert (await desk.get("/api/contacts")).status_code == 401
    assert (await desk.post("/api/lists", json={"Name": "x"})).status_code == 401


async def test_reads_need_membership_and_writes_an_admin(desk, identity):
    owner, account, headers = await owner_and_account(desk, identity, "audroles")
    colleague = await signed_in_member(identity, desk, "audcolleague")
    await join(desk, owner, account["Id"], colleague)
    as_member = {**colleague.auth, "X-Service-Tenant": account["Id"]}
    assert (await desk.post("/api/lists", headers=headers, json={"Name": "Team"})).status_code == 201
    assert (await desk.get("/api/lists", headers=as_member)).status_code == 200
    assert (await desk.get("/api/contacts", headers=as_member)).status_code == 200
    for path, body in (("/api/contacts", {"Email": email("m")}), ("/api/lists", {"Name": "Nope"}),
                       ("/api/contacts/bulk", {"Contacts": [{"ExternalId": "1"}]})):
        refused = await desk.post(path, headers=as_member, json=body)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["Error"]["Code"] == "PermissionDenied"


async def test_crm_down_is_502(start_server, services, dashboard, identity):
    owner, account, headers = await owner_and_account(dashboard, identity, "audcrmdown")
    platform = start_server("platform", CRM_URL=f"http://127.0.0.1:{free_port()}")
    origin = services.env["PLATFORM_URL"]
    async with httpx.AsyncClient(base_url=platform.url, timeout=20, headers={"Origin": origin}) as http:
        answers = [await http.get("/api/contacts", headers=headers), await http.get("/api/lists", headers=headers),
                   await http.post("/api/contacts", headers=headers, json={"Email": email("down")}),
                   await http.post("/api/contacts/bulk", headers=headers, json={"Contacts": [{"ExternalId": "1"}]}),
                   await http.post("/api/lists", headers=headers, json={"Name": "Down"}),
                   await http.post(f"/api/lists/lst_{'0' * 24}/members", headers=headers,
                                   json={"ContactIds": ["ctt_" + "0" * 24]})]
        # What the platform decides alone is still answered: a malformed body, a bad limit.
        local = await http.post("/api/contacts/bulk", headers=headers, json={"Contacts": []})
    for answer in answers:
        assert answer.status_code == 502, answer.text
        assert answer.json()["Error"]["Code"] == "UpstreamError" and "127.0.0.1" not in answer.text
    assert local.status_code == 422
