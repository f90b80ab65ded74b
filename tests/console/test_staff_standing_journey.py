"""The staff account page's usage and tree in Chromium (tests/console/web.py): a staff member, with
no support session, reads a sub-account's sends this month against the quota it inherits (the bar),
walks up to its parent and down to a sibling whose own quota is spent. axe-core on every page;
screenshots `staff-standing-*` in var/screens/."""

from __future__ import annotations

import pytest
from tortoise import connections

from models.platform.usage import increment, period_of
from tests.console.test_journeys import path, sign_in, verified_person
from tests.console.test_staff_journey import api, auth, owner  # noqa: F401 (fixtures)
from tests.console.web import Visit
from tests.fixtures.dashboard import allowlist, bearer
from tests.fixtures.identity import PASSWORD, outbox_for

pytestmark = pytest.mark.timeout(240)


async def sends(tenant_id: str, **counts: int) -> None:
    """This month's counters of the account, as its sends would have moved them."""
    conn = connections.get("platform")
    [row] = await conn.execute_query_dict("SELECT id FROM tenants WHERE public_id = $1", [tenant_id])
    await increment(conn, row["id"], period_of(), **counts)


async def test_staff_read_an_accounts_usage_and_walk_its_tree(web: Visit, auth, api):  # noqa: F811
    page = web.page
    person, group, _ = await owner(auth, api, "standing-owner", "Orchard Group")
    login = await api.post("/api/auth/login", json={"email": person.email, "password": person.password})
    session = {"Authorization": f"Bearer {login.json()['Token']}"}
    quota = await api.patch(f"/api/tenants/{group['Id']}/quota", json={"MonthlyQuota": 1000}, headers=session)
    assert quota.status_code == 200, quota.text
    made = {}
    for name, parent, extra in (("Orchard Retail", group["Id"], {}), ("Orchard Wholesale", group["Id"],
                                                                      {"MonthlyQuota": 200})):
        answer = await api.post(f"/api/tenants/{parent}/children", json={"Name": name, **extra}, headers=session)
        assert answer.status_code == 201, answer.text
        made[name] = answer.json()["Tenant"]
    answer = await api.post(f"/api/tenants/{made['Orchard Retail']['Id']}/children", json={"Name": "Orchard Retail EU"},
                            headers=session)
    assert answer.status_code == 201, answer.text
    made["Orchard Retail EU"] = answer.json()["Tenant"]
    retail, wholesale = made["Orchard Retail"], made["Orchard Wholesale"]
    await sends(retail["Id"], emails_sent=640, sms_sent=120, push_sent=30, whatsapp_sent=10)
    await sends(wholesale["Id"], emails_sent=250)

    staff = await verified_person(auth, "standing-staff")
    await allowlist(staff.id)
    turned_on = await auth.post("/v1/2fa/email", json={"password": PASSWORD}, headers=bearer(staff.token))
    assert turned_on.status_code == 200, turned_on.text
    await sign_in(web, staff.email)
    code = (await outbox_for(staff.email, "2fa_code"))["data"]["code"]
    await page.get_by_label("Code", exact=True).fill(code)
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_load_state("load")

    # The sub-account: 800 sends of the 1,000 its parent allows, by channel; its parent and its own child.
    await web.goto(f"/staff/accounts/{retail['Id']}")
    await web.heading("Orchard Retail")
    main = page.locator("main")
    text = await main.inner_text()
    assert "800 of 1,000 messages sent (80%), under the quota set on an account above it" in text, text
    assert "200 left this month" in text
    for label, count in (("E-mail", "640"), ("SMS", "120"), ("Push", "30"), ("WhatsApp", "10")):
        assert await main.locator("dt", has_text=label).first.is_visible()
        assert count in text
    assert await page.locator(".quota-bar.high .quota-fill.w-80").count() == 1
    above = page.get_by_role("navigation", name="Accounts above Orchard Retail")
    assert await above.get_by_role("link", name="Orchard Group").count() == 1
    assert await main.get_by_role("link", name="Orchard Retail EU").count() == 1
    assert await page.get_by_role("region", name="Support session").count() == 0  # none was entered
    await web.check("staff-standing-sub-account")

    # Up to the parent: its sub-accounts nested, each a link to its own staff page.
    await above.get_by_role("link", name="Orchard Group").click()
    await web.heading("Orchard Group")
    assert path(web) == f"/staff/accounts/{group['Id']}"
    text = await main.inner_text()
    assert "A top-level account" in text and "0 of 1,000 messages sent (0%)" in text, text
    tree = page.locator(".staff-tree")
    for name in ("Orchard Retail", "Orchard Retail EU", "Orchard Wholesale"):
        assert await tree.get_by_role("link", name=name, exact=True).count() == 1, name
    assert await tree.locator("ul a", has_text="Orchard Retail EU").count() == 1  # below Orchard Retail
    await web.check("staff-standing-parent")

    # Down to the sibling, whose own quota of 200 is spent.
    await tree.get_by_role("link", name="Orchard Wholesale", exact=True).click()
    await web.heading("Orchard Wholesale")
    text = await main.inner_text()
    assert "250 of 200 messages sent (125%)" in text and "The quota is spent" in text, text
    assert await page.locator(".quota-bar.over .quota-fill.w-100").count() == 1
    assert "No sub-accounts." in text
    await web.check("staff-standing-spent")
