"""Templates on the dashboard over HTTP: upsert by (account, slug), the channels' rules, the
sandboxed rendering, the per-account cap, and another account's templates staying out of sight."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import join, new_account, signed_in_member


def tenant_header(account: dict) -> dict[str, str]:
    return {"X-Service-Tenant": account["Id"]}


async def test_upsert_creates_then_updates_the_same_template(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tplowner")
    account = await new_account(dashboard, owner, "Templates")
    headers = {**owner.auth, **tenant_header(account)}
    body = {"Slug": "welcome", "Channel": "email", "Name": "Welcome", "Subject": "Hi {{ name }}",
            "Text": "Hello {{ name }}, your plan is {{ plan }}.", "Html": "<p>Hello {{ name }}</p>"}
    created = await dashboard.post("/api/templates", json=body, headers=headers)
    assert created.status_code == 200, created.text
    template = created.json()["Template"]
    assert template["Slug"] == "welcome" and template["Channel"] == "email" and template["Status"] == "active"
    assert template["Variables"] == ["name", "plan"]
    assert template["TemplateId"].startswith("tpl_")

    updated = await dashboard.post("/api/templates", json={**body, "Text": "Bye {{ name }}"}, headers=headers)
    assert updated.status_code == 200, updated.text
    assert updated.json()["Template"]["TemplateId"] == template["TemplateId"]
    assert updated.json()["Template"]["Text"] == "Bye {{ name }}"
    assert updated.json()["Template"]["Variables"] == ["name"]

    listed = await dashboard.get("/api/templates", headers=headers)
    assert listed.status_code == 200
    assert [row["Slug"] for row in listed.json()["Templates"]] == ["welcome"]


async def test_whatsapp_templates_carry_their_approval_state(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tplwa")
    account = await new_account(dashboard, owner, "WA Templates")
    headers = {**owner.auth, **tenant_header(account)}
    made = await dashboard.post("/api/templates", json={"Slug": "otp", "Channel": "whatsapp",
                                                        "Text": "Your code is {{1}}"}, headers=headers)
    assert made.status_code == 200, made.text
    assert made.json()["Template"]["Status"] == "pending"
    assert made.json()["Template"]["Variables"] == ["1"]


async def test_each_channel_needs_its_parts_and_valid_syntax(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tplrules")
    account = await new_account(dashboard, owner, "Template rules")
    headers = {**owner.auth, **tenant_header(account)}
    cases = [
        ({"Slug": "a", "Channel": "email", "Text": "no subject"}, "Subject"),
        ({"Slug": "b", "Channel": "sms"}, "Text"),
        ({"Slug": "c", "Channel": "push", "Text": "no title"}, "Subject"),
        ({"Slug": "d", "Channel": "sms", "Text": "x", "Html": "<b>x</b>"}, "Html"),
        ({"Slug": "e", "Channel": "sms", "Text": "Hi {{ name "}, "Text"),
    ]
    for body, field in cases:
        refused = await dashboard.post("/api/templates", json=body, headers=headers)
        assert refused.status_code == 422, (body, refused.text)
        assert field in refused.json()["Error"]["Details"], refused.text
    bad_channel = await dashboard.post("/api/templates", json={"Slug": "f", "Channel": "fax", "Text": "x"},
                                       headers=headers)
    assert bad_channel.status_code == 400 and "Channel" in bad_channel.json()["Error"]["Details"]
    unknown = await dashboard.post("/api/templates", json={"Slug": "g", "Channel": "sms", "Text": "x", "Extra": 1},
                                   headers=headers)
    assert unknown.status_code == 400 and "Extra" in unknown.json()["Error"]["Message"]
    bad_slug = await dashboard.post("/api/templates", json={"Slug": "Has Space", "Channel": "sms", "Text": "x"},
                                    headers=headers)
    assert bad_slug.status_code == 400


async def test_the_cap_of_100_templates_per_account(dashboard, identity):
    from models.platform.template import Template
    from models.platform.tenant import Tenant

    owner = await signed_in_member(identity, dashboard, "tplcap")
    account = await new_account(dashboard, owner, "Template cap")
    headers = {**owner.auth, **tenant_header(account)}
    tenant = await Tenant.get(public_id=account["Id"])
    await Template.bulk_create([Template(tenant=tenant, slug=f"t{index:03d}", channel="sms", text="x")
                                for index in range(100)])
    over = await dashboard.post("/api/templates", json={"Slug": "one-more", "Channel": "sms", "Text": "x"},
                                headers=headers)
    assert over.status_code == 409, over.text
    assert over.json()["Error"]["Code"] == "LimitExceeded"
    assert over.json()["Error"]["Details"] == {"Resource": "templates", "Limit": 100}
    existing = await dashboard.post("/api/templates", json={"Slug": "t007", "Channel": "sms", "Text": "changed"},
                                    headers=headers)
    assert existing.status_code == 200, existing.text  # an update is not a new template

    page = await dashboard.get("/api/templates", params={"limit": 5}, headers=headers)
    assert [row["Slug"] for row in page.json()["Templates"]] == ["t000", "t001", "t002", "t003", "t004"]
    everything = await dashboard.get("/api/templates", headers=headers)
    assert len(everything.json()["Templates"]) == 100
    for params in ({"limit": 0}, {"limit": 101}, {"cursor": "x"}):
        refused = await dashboard.get("/api/templates", params=params, headers=headers)
        assert refused.status_code == 422, (params, refused.text)


async def test_templates_are_the_accounts_own_and_writes_need_an_admin(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tplmine")
    stranger = await signed_in_member(identity, dashboard, "tplstranger")
    colleague = await signed_in_member(identity, dashboard, "tplmember")
    account = await new_account(dashboard, owner, "Mine")
    other = await new_account(dashboard, stranger, "Theirs")
    made = await dashboard.post("/api/templates", json={"Slug": "secret", "Channel": "sms", "Text": "x"},
                                headers={**owner.auth, **tenant_header(account)})
    assert made.status_code == 200
    foreign = await dashboard.get("/api/templates", headers={**stranger.auth, **tenant_header(account)})
    assert foreign.status_code == 404
    theirs = await dashboard.get("/api/templates", headers={**stranger.auth, **tenant_header(other)})
    assert theirs.status_code == 200 and theirs.json()["Templates"] == []

    await join(dashboard, owner, account["Id"], colleague)
    reads = await dashboard.get("/api/templates", headers={**colleague.auth, **tenant_header(account)})
    assert reads.status_code == 200 and len(reads.json()["Templates"]) == 1
    writes = await dashboard.post("/api/templates", json={"Slug": "nope", "Channel": "sms", "Text": "x"},
                                  headers={**colleague.auth, **tenant_header(account)})
    assert writes.status_code == 403


async def test_no_tenant_and_no_session(dashboard, identity):
    lonely = await signed_in_member(identity, dashboard, "tpllonely")
    refused = await dashboard.get("/api/templates", headers=lonely.auth)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "NoTenant"
    assert (await dashboard.get("/api/templates")).status_code == 401


async def test_v1_sms_and_email_sends_name_a_template(platform, sender):
    from models.platform.message import Message
    from models.platform.template import Template
    from models.platform.tenant import Tenant
    from tests.fixtures.platform import email

    tenant = await Tenant.get(public_id=sender.tenant_id)
    await Template.create(tenant=tenant, slug="code", channel="sms", text="Code {{ code }}")
    await Template.create(tenant=tenant, slug="receipt", channel="email", subject="Receipt {{ n }}",
                          html="<b>{{ who }}</b>", text="{{ who }}")
    sms = await platform.post("/v1/sms/send", headers=sender.headers,
                              json={"To": ["+14155550501"], "Template": "code", "Variables": {"code": "9911"}})
    assert sms.status_code == 202, sms.text
    stored = await Message.get(public_id=sms.json()["MessageId"])
    assert stored.content == {"Body": "Code 9911"} and stored.template == "code"

    body = email(Template="receipt", Variables={"n": 7, "who": "<Ann>"})
    del body["Message"]
    mail = await platform.post("/v1/emails/send", headers=sender.headers, json=body)
    assert mail.status_code == 202, mail.text
    stored = await Message.get(public_id=mail.json()["MessageId"])
    assert stored.subject == "Receipt 7" and stored.template == "receipt"
    assert stored.content["Html"] == "<b>&lt;Ann&gt;</b>" and stored.content["Text"] == "<Ann>"

    missing = await platform.post("/v1/sms/send", headers=sender.headers,
                                  json={"To": ["+14155550501"], "Template": "code"})
    assert missing.status_code == 422 and missing.json()["Error"]["Details"] == {"Variables.code": "required"}
    wrong_channel = await platform.post("/v1/sms/send", headers=sender.headers,
                                        json={"To": ["+14155550501"], "Template": "receipt", "Variables": {}})
    assert wrong_channel.status_code == 422 and "Template" in wrong_channel.json()["Error"]["Details"]
    both = await platform.post("/v1/sms/send", headers=sender.headers,
                               json={"To": ["+14155550501"], "Body": "x", "Template": "code"})
    assert both.status_code == 400
    neither = await platform.post("/v1/emails/send", headers=sender.headers, json={
        "Source": "a@sandbox.herald.test", "Destination": {"ToAddresses": ["b@example.com"]}})
    assert neither.status_code == 400
    injected = await platform.post("/v1/emails/send", headers=sender.headers,
                                   json={**body, "Variables": {"n": "1\r\nBcc: x@example.com", "who": "w"}})
    assert injected.status_code == 422 and "Subject" in injected.json()["Error"]["Details"]
    batch = await platform.post("/v1/emails/batch", headers=sender.headers, json={"Messages": [
        body, {**body, "Variables": {"n": 1}}]})
    results = batch.json()["Results"]
    assert "MessageId" in results[0] and results[1]["Error"]["Details"] == {"Variables.who": "required"}
