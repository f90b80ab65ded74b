"""The landing-pages screens over HTTP, against the real pages system: a page made and edited through
the editor's form (a refusal of the pages system beside the block's field, every value kept; a save;
the preview framed from the runtime's origin under the editor's CSP; the autosave's panel), published
with no domain (served nowhere), a domain added; a member reads and is refused writes; another
account is a 404."""

from __future__ import annotations

import pytest

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


@pytest.fixture
async def pages_console(console, servers) -> str:
    servers("pages")
    return console


def editor_form(browser, title: str, blocks: list[dict], action: str = "save", **extra) -> dict:
    form = {"title": title, "slug": "spring", "domain": "", "blocks": str(len(blocks)), "action": action, **extra}
    for i, block in enumerate(blocks):
        form.update({f"b{i}-{name}": value for name, value in block.items()})
    return form


async def test_a_page_is_made_edited_previewed_and_published(pages_console, browser, identity, dashboard, services):
    owner, account = await owner_with_account(identity, dashboard, "console-pages", "Pages Co")
    base = f"/a/{account['Id']}/pages"
    await browser.sign_in(owner.person.email, PASSWORD)
    empty = await browser.get(base)
    assert empty.status_code == 200 and "No pages yet" in empty.text
    made = await browser.post(f"{base}/new", {"title": "Spring sale", "slug": "", "domain": ""})
    assert made.status_code == 303, made.text
    editor_path = made.headers["location"]
    page = await browser.get(editor_path)
    runtime = services.env["RUNTIME_URL"].rstrip("/")
    assert page.status_code == 200 and 'value="spring-sale"' in page.text
    assert f"frame-src {runtime}" in page.headers["content-security-policy"]
    assert f'src="{runtime}/_preview/' in page.text and 'sandbox="allow-popups' in page.text
    assert "allow-same-origin" not in page.text

    refused = await browser.post(editor_path, editor_form(browser, "Spring <sale>", [
        {"type": "heading", "text": "Spring", "level": "1"},
        {"type": "button", "label": "Shop now", "url": "ftp://shop.example.com", "style": "primary"}]))
    assert refused.status_code == 400
    assert "Must be an http:// or https:// URL" in refused.text and 'id="b1-url-error"' in refused.text
    assert 'value="ftp://shop.example.com"' in refused.text and 'value="Spring &lt;sale&gt;"' in refused.text

    added = await browser.post(editor_path, editor_form(browser, "Spring sale", [
        {"type": "heading", "text": "Spring", "level": "1"}], action="add", kind="text"))
    assert added.status_code == 200 and "Block 2: Text" in added.text
    saved = await browser.post(editor_path, editor_form(browser, "Spring sale", [
        {"type": "heading", "text": "Spring", "level": "1"}, {"type": "text", "text": "Only this week."}]))
    assert saved.status_code == 200 and "Draft saved." in saved.text
    seo = await browser.post(editor_path, editor_form(browser, "Spring sale", [{"type": "text", "text": "Typed."}],
                                                      seo_title="Spring: 20% off", seo_image="http://img.example.com/a.png",
                                                      seo_noindex="1"))
    assert seo.status_code == 400 and 'id="seo_image-error"' in seo.text and 'value="Spring: 20% off"' in seo.text
    seo = await browser.post(editor_path, editor_form(browser, "Spring sale", [{"type": "text", "text": "Typed."}],
                                                      seo_title="Spring: 20% off", seo_noindex="1"))
    assert seo.status_code == 200 and "Draft saved." in seo.text
    shown = await browser.get(editor_path)
    assert 'value="Spring: 20% off"' in shown.text and 'name="seo_noindex" value="1" checked' in shown.text

    autosaved = await browser.post(f"{editor_path}/autosave", editor_form(browser, "Spring sale", [
        {"type": "text", "text": "Typed."}]), headers={"HX-Request": "true"})
    assert autosaved.status_code == 200 and autosaved.text.startswith('<div id="preview-panel"')
    unsaved = await browser.post(f"{editor_path}/autosave", editor_form(browser, "Spring sale", [
        {"type": "button", "label": "Go", "url": "nowhere"}]), headers={"HX-Request": "true"})
    assert unsaved.headers["hx-retarget"] == "#preview-status" and "Not saved yet:" in unsaved.text

    published = await browser.post(editor_path, editor_form(browser, "Spring sale", [
        {"type": "text", "text": "Typed."}], action="publish"))
    assert published.status_code == 200 and "Published as version 1." in published.text
    assert "Served nowhere yet" in published.text and "names no domain" in published.text
    listed = await browser.get(base)
    assert "Published" in listed.text and "/spring" in listed.text

    domain = await browser.post(f"{base}/domains", {"name": "Not a domain"})
    assert domain.status_code == 400 and "Enter a domain like lp.example.com" in domain.text
    added_domain = await browser.post(f"{base}/domains", {"name": "lp.pages-co.example.com"})
    assert added_domain.status_code == 303
    shown = await browser.get(added_domain.headers["location"])
    assert "_herald-verify.lp.pages-co.example.com" in shown.text and "Not verified" in shown.text


async def test_member_reads_and_outsider_gets_404(pages_console, browser, another_browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-pages-owner", "Pages Read Co")
    base = f"/a/{account['Id']}/pages"
    await another_browser.sign_in(owner.person.email, PASSWORD)
    await another_browser.get(f"{base}/new")  # the signed-in session's form token
    made = await another_browser.post(f"{base}/new", {"title": "Winter", "slug": "winter", "domain": ""})
    editor_path = made.headers["location"]
    member = await signed_in_member(identity, dashboard, "console-pages-member")
    await join(dashboard, owner, account["Id"], member)
    await browser.sign_in(member.person.email, PASSWORD)
    listed = await browser.get(base)
    assert listed.status_code == 200 and "Winter" in listed.text and "New page" not in listed.text
    page = await browser.get(editor_path)
    assert page.status_code == 200 and "Only owners and admins change and publish pages" in page.text
    assert "Add block" not in page.text
    refused = await browser.post(editor_path, editor_form(browser, "Winter", [{"type": "text", "text": "x"}]))
    assert refused.status_code == 403 and "Only owners and admins change pages." in refused.text
    assert (await browser.get(f"{base}/domains")).status_code == 200

    outsider = await signed_in_member(identity, dashboard, "console-pages-out")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    assert (await another_browser.get(base)).status_code == 404
    assert (await another_browser.get(editor_path)).status_code == 404
