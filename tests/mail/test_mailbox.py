"""Organizations and mailboxes: one organization per account, mailboxes only on the account's
verified domains, GET /v1/senders lists them with their UsableFor, another account's are 404."""

from __future__ import annotations

import secrets

from tests.mail.conftest import sign_up, verified_domain


async def test_a_mailbox_on_a_verified_domain_is_listed_by_the_platform(mail, core, dns_server):
    person = await sign_up(core)
    organizations = await mail.get("/v1/organizations", headers=person.headers)
    assert organizations.status_code == 200, organizations.text
    [organization] = organizations.json()["organizations"]
    assert organization["account_id"] == person.tenant_id and organization["id"].startswith("org_")
    # One per account: asked again (here with the person's session), the same one.
    again = await mail.get("/v1/organizations", headers=person.session)
    assert again.status_code == 200 and again.json()["organizations"][0]["id"] == organization["id"], again.text

    pending = f"pending{secrets.token_hex(4)}.example"
    assert (await mail.post("/v1/domains", headers=person.headers, json={"name": pending})).status_code == 201
    refused = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"hi@{pending}"})
    assert refused.status_code == 422 and refused.json()["error"] == "DomainNotVerified", refused.text
    unknown = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": "hi@nowhere.example"})
    assert unknown.status_code == 422, unknown.text

    name = await verified_domain(mail, dns_server, person.headers)
    made = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"Hello@{name}", "name": "Acme"})
    assert made.status_code == 201, made.text
    mailbox = made.json()["mailbox"]
    assert mailbox["address"] == f"hello@{name}" and mailbox["domain"] == name and mailbox["mode"] == "live"
    assert mailbox["organization_id"] == organization["id"] and mailbox["id"].startswith("mbx_")
    twice = await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"hello@{name}"})
    assert twice.status_code == 409 and twice.json()["error"] == "Conflict"

    assert (await mail.get(f"/v1/mailboxes/{mailbox['id']}", headers=person.headers)).json()["mailbox"] == mailbox
    listed = await mail.get("/v1/mailboxes", headers=person.session)
    assert [row["id"] for row in listed.json()["mailboxes"]] == [mailbox["id"]]
    counted = await mail.get(f"/v1/organizations/{organization['id']}", headers=person.headers)
    assert counted.json()["organization"]["mailboxes"] == 1

    senders = await core.get("/v1/senders", headers=person.headers)
    assert senders.status_code == 200, senders.text
    assert senders.json()["Mailboxes"] == [{"Address": f"hello@{name}", "UsableFor": ["emails/send",
                                                                                      "mail:/v1/emails"]}]
    assert [d["Name"] for d in senders.json()["Domains"]] == sorted([name, pending])

    assert (await mail.delete(f"/v1/mailboxes/{mailbox['id']}", headers=person.headers)).status_code == 204
    assert (await mail.get(f"/v1/mailboxes/{mailbox['id']}", headers=person.headers)).status_code == 404
    assert (await core.get("/v1/senders", headers=person.headers)).json()["Mailboxes"] == []


async def test_another_accounts_mailbox_and_organization_are_404(mail, core, dns_server):
    owner, stranger = await sign_up(core), await sign_up(core)
    name = await verified_domain(mail, dns_server, owner.headers)
    mailbox = (await mail.post("/v1/mailboxes", headers=owner.headers,
                               json={"address": f"team@{name}"})).json()["mailbox"]
    organization = mailbox["organization_id"]
    for method, path in (("GET", f"/v1/mailboxes/{mailbox['id']}"), ("DELETE", f"/v1/mailboxes/{mailbox['id']}"),
                         ("GET", f"/v1/organizations/{organization}"), ("GET", "/v1/mailboxes/mbx_missing"),
                         ("GET", "/v1/organizations/org_missing"), ("GET", "/v1/mailboxes/" + "m" * 41),
                         ("DELETE", "/v1/mailboxes/" + "%C3%A6" * 20), ("GET", "/v1/organizations/" + "o" * 41)):
        for headers in (stranger.headers, stranger.session):
            answer = await mail.request(method, path, headers=headers)
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json() == {"error": "NotFound", "message": answer.json()["message"]}
    # Nor can the stranger put a mailbox on the owner's domain.
    taken = await mail.post("/v1/mailboxes", headers=stranger.headers, json={"address": f"x@{name}"})
    assert taken.status_code == 422
    assert (await mail.get("/v1/mailboxes", headers=stranger.headers)).json()["mailboxes"] == []
    assert (await mail.get(f"/v1/mailboxes/{mailbox['id']}", headers=owner.headers)).status_code == 200


async def test_a_test_key_makes_test_mailboxes_and_changes_no_domain(mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    live = (await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"live@{name}"})).json()
    tester = await core.post(f"/api/tenants/{person.tenant_id}/api-keys", headers={"Authorization": f"Bearer {person.token}"},
                             json={"name": "test", "scopes": ["mail:admin", "email:send"], "kind": "test"})
    test_headers = {"Authorization": f"Bearer {tester.json()['ApiKey']['Key']}"}
    # Domains are live objects: read, never changed, by a test key.
    assert (await mail.get("/v1/domains", headers=test_headers)).status_code == 200
    for method, path, body in (("POST", "/v1/domains", {"name": "t.example"}), ("POST", f"/v1/domains/{name}/verify", None),
                               ("DELETE", f"/v1/domains/{name}", None)):
        refused = await mail.request(method, path, headers=test_headers, json=body)
        assert refused.status_code == 403 and refused.json()["error"] == "PermissionDenied", refused.text
    sandbox = await mail.post("/v1/mailboxes", headers=test_headers, json={"address": "demo@sandbox.herald.test"})
    assert sandbox.status_code == 201 and sandbox.json()["mailbox"]["mode"] == "test", sandbox.text
    # A live key may not use the sandbox domain; the modes do not see each other's mailboxes.
    assert (await mail.post("/v1/mailboxes", headers=person.headers,
                            json={"address": "demo@sandbox.herald.test"})).status_code == 422
    assert [m["address"] for m in (await mail.get("/v1/mailboxes", headers=test_headers)).json()["mailboxes"]] == [
        "demo@sandbox.herald.test"]
    assert (await mail.get(f"/v1/mailboxes/{live['mailbox']['id']}", headers=test_headers)).status_code == 404
    senders = await core.get("/v1/senders", headers=test_headers)
    assert senders.json()["Mailboxes"] == [{"Address": "demo@sandbox.herald.test",
                                            "UsableFor": ["emails/send", "mail:/v1/emails"]}]
