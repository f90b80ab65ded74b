"""In Chromium, against identity, platform, pages, runtime and console under their own host names, the
pages system resolving DNS through the tests' loopback server: a custom domain added (its records
shown), a page built in the editor with a few blocks (the live preview, a sandboxed frame from the
runtime, following the changes), published before the domain is verified (the warning that it is
served nowhere yet), the domain verified, and the page opened on its own host in the browser.
axe-core on every page; each screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import secrets

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import HOSTS, SCREENS, Visit
from tests.fixtures.identity import PASSWORD

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]
SITE = f"lp-{secrets.token_hex(4)}.example.com"  # the custom domain of this run (Chromium maps it locally)


async def owner_account(hosts) -> tuple[object, str]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, "pages-console")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        made = await api.post("/api/tenants", json={"Name": f"Pages {secrets.token_hex(2)}"}, headers=bearer)
        assert made.status_code == 201, made.text
    return owner, made.json()["Id"]


async def test_a_page_built_in_the_editor_is_previewed_published_and_served_on_its_verified_domain(
        web: Visit, herald_hosts, dns_server):  # noqa: F811
    page = web.page
    owner, account = await owner_account(herald_hosts)
    await sign_in(web, owner.email)

    # A custom domain: added, its records shown, not verified yet.
    await web.goto(f"/a/{account}/pages/domains", "pages-domains-empty")
    await web.heading("Domains for pages")
    await page.get_by_label("Domain", exact=True).fill(SITE)
    await page.get_by_role("button", name="Add domain").click()
    await web.heading(SITE)
    await web.check("pages-domain-records")
    proof_name = (await page.locator("#copy-proof-name").inner_text()).strip()
    proof_value = (await page.locator("#copy-proof-value").inner_text()).strip()
    assert proof_name == f"_herald-verify.{SITE}" and proof_value.startswith("herald-verify=")
    assert (await page.locator("#copy-traffic-value").inner_text()).strip() == HOSTS["runtime"]

    # A page on it, built in the editor.
    await web.goto(f"/a/{account}/pages/new", "pages-new")
    await page.get_by_label("Title").fill("Spring sale")
    await page.get_by_label("Address").fill("spring")
    await page.get_by_label("Domain").select_option(SITE)
    await page.get_by_role("button", name="Make the page").click()
    await web.heading("Spring sale")
    editor_url = page.url
    await page.get_by_label("Add a block").select_option("text")
    await page.get_by_role("button", name="Add block").click()
    await page.get_by_label("Text", exact=True).fill("Only this week: 20% off everything.")
    preview = page.frame_locator("iframe.preview-frame")
    # The live preview: the draft saved after a pause in the typing, the frame reloaded from the runtime.
    await preview.get_by_text("Only this week: 20% off everything.").wait_for()
    await page.get_by_label("Add a block").select_option("button")
    await page.get_by_role("button", name="Add block").click()
    await page.get_by_label("Label").fill("Shop now")
    await page.get_by_label("Goes to").fill("https://shop.example.com/spring")
    await preview.get_by_role("link", name="Shop now").wait_for()
    await page.get_by_role("button", name="Move block 3 up").click()
    await page.get_by_role("button", name="Save draft", exact=True).last.click()
    await page.get_by_text("Draft saved.").wait_for()
    legends = await page.locator(".block legend").all_inner_texts()
    assert legends == ["Block 1: Heading", "Block 2: Button", "Block 3: Text"]
    frame = page.locator("iframe.preview-frame")
    assert await frame.get_attribute("sandbox") == "allow-popups allow-popups-to-escape-sandbox"
    assert (await frame.get_attribute("src")).startswith(f"{herald_hosts.url('runtime')}/_preview/")
    await preview.get_by_role("link", name="Shop now").wait_for()
    await web.check("pages-editor")
    # On a phone the frame comes under the blocks: scrolled to, it shows the page (a full-page
    # photograph leaves a cross-origin frame far below the fold unpainted).
    await page.set_viewport_size({"width": 390, "height": 800})
    await frame.scroll_into_view_if_needed()
    await preview.get_by_role("link", name="Shop now").wait_for()
    await page.screenshot(path=str(SCREENS / "pages-editor-preview-390.png"))
    await page.set_viewport_size({"width": 1280, "height": 800})

    # Published before the domain is verified: on the air, and served nowhere yet.
    await page.get_by_role("button", name="Publish", exact=True).click()
    await page.get_by_text("Published as version 1.").wait_for()
    warning = page.locator(".served-nowhere")
    assert "is not verified yet" in await warning.inner_text()
    await web.check("pages-editor-published-unverified")
    async with httpx.AsyncClient(timeout=10) as visitor:
        unseen = await visitor.get(f"http://127.0.0.1:{herald_hosts.ports['runtime']}/spring", headers={"Host": SITE})
    assert unseen.status_code == 404

    # The TXT record published, the domain verified from its page.
    dns_server.publish(proof_name, "TXT", proof_value)
    await web.goto(f"/a/{account}/pages/domains")
    await page.get_by_role("link", name=SITE).click()
    await page.get_by_role("button", name=f"Verify {SITE}").click()
    await page.get_by_text(f"{SITE} is verified").wait_for()
    await web.check("pages-domain-verified")

    # The editor no longer warns, and links the page where visitors see it.
    await web.goto(editor_url)
    assert await page.locator(".served-nowhere").count() == 0
    live = f"http://{SITE}:{herald_hosts.ports['runtime']}/spring"
    assert await page.get_by_role("link", name=live).count() == 1
    await web.goto(f"/a/{account}/pages", "pages-list")
    row = page.get_by_role("row", name="Spring sale")
    assert "Published" in await row.inner_text() and SITE in await row.inner_text()

    # Opened on its own host, as a visitor: the runtime keeps what a host serves for up to 30 s
    # (app/runtime/site/cache.py), and the visit above, before the verification, found nothing there.
    heading = page.get_by_role("heading", name="Spring sale", level=1)
    for _ in range(25):
        await page.goto(live)
        if await heading.count():
            break
        await page.wait_for_timeout(2_000)
    await heading.wait_for()
    assert await page.get_by_role("link", name="Shop now").get_attribute("href") == "https://shop.example.com/spring"
    await page.get_by_text("Only this week: 20% off everything.").wait_for()
