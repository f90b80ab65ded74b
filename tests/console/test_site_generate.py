"""In Chromium, with an AI provider configured (a local server speaking the OpenAI-compatible chat
API): a brief too short refused beside its field, a draft generated and shown (nothing saved), then
a page created from it through the pages system with a slug of the person's choosing. The screen
without a provider is test_site_console.py's. axe-core on every page; the draft photographed."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in
from tests.console.test_site_console import owner_account
from tests.console.web import HOSTS, Visit, hosts_running, launch_chromium, visiting
from tests.pages.servers import ChatServer

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]
DRAFT = {"Title": "Spring yoga", "Seo": {"Title": "Spring yoga", "Description": "20% off every class"},
         "Blocks": [{"Type": "heading", "Text": "Breathe in spring", "Level": 1},
                    {"Type": "text", "Text": "20% off every class until June."},
                    {"Type": "button", "Label": "Book a class", "Url": "#book"}]}


@pytest.fixture(scope="module")
def ai_hosts(services, tmp_path_factory):
    chat = ChatServer(json.dumps(DRAFT))
    try:
        with hosts_running(services, tmp_path_factory, systems=("identity", "platform", "pages", "console"),
                           AI_BASE_URL=f"{chat.url}/v1", AI_API_KEY="sk-test", AI_MODEL="tiny") as hosts:
            yield hosts
    finally:
        chat.close()


@pytest.fixture(scope="module")
async def ai_chromium(ai_hosts):
    rules = ", ".join(f"MAP {host} 127.0.0.1" for host in HOSTS.values())
    async with launch_chromium(f"--host-resolver-rules={rules}") as browser:
        yield browser


@pytest.fixture
async def web(ai_chromium, ai_hosts) -> AsyncIterator[Visit]:
    async with visiting(ai_chromium, ai_hosts) as visit:
        yield visit


async def test_a_draft_generated_then_made_a_page(web: Visit, ai_hosts):
    page = web.page
    owner, account, acting = await owner_account(ai_hosts, "site-ai")
    pages = httpx.AsyncClient(base_url=f"http://127.0.0.1:{ai_hosts.ports['pages']}", timeout=20, headers=acting)
    await sign_in(web, owner.email)
    await web.goto(f"/a/{account}/pages")
    await page.get_by_role("link", name="Draft a page with AI").click()
    await web.heading("Generate a page")
    await page.get_by_label("What is the page about?").fill("yoga")
    await page.get_by_role("button", name="Generate a draft").click()
    await page.locator("#brief-error").get_by_text("at least 10 characters").wait_for()
    await page.get_by_label("What is the page about?").fill("A spring discount of 20% for a yoga studio.")
    await page.get_by_label("Language").select_option("en")
    await page.get_by_role("button", name="Generate a draft").click()
    await page.get_by_role("heading", name="The draft: Spring yoga").wait_for()
    await page.get_by_text("Breathe in spring").wait_for()
    assert (await pages.get("/v1/paginas")).json()["Paginas"] == []  # a draft saves nothing
    await web.check("site-ai-draft")

    await page.get_by_label("Slug").fill("spring-yoga")
    await page.get_by_role("button", name="Create the page as a draft").click()
    await page.wait_for_url(f"**/a/{account}/pages/pag_*")
    made = (await pages.get("/v1/paginas")).json()["Paginas"]
    assert [(item["Title"], item["Slug"], item["Status"]) for item in made] == [("Spring yoga", "spring-yoga", "rascunho")]
    assert page.url.endswith(made[0]["Id"])
    full = (await pages.get(f"/v1/paginas/{made[0]['Id']}")).json()["Pagina"]
    assert [block["Type"] for block in full["Blocks"]] == ["heading", "text", "button"]
    assert full["Seo"]["Description"] == "20% off every class"
    await pages.aclose()
