"""Templates over HTTP: an empty list, a new template (the slug checked, the platform's render
refusal beside the field it names, every value kept), the variables the platform found, editing
(the slug stays), the live preview, WhatsApp's approval state in words, a member reads but does not edit, another
account's templates a 404."""

from __future__ import annotations

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


async def test_templates_list_create_edit(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-tpl", "Templates Co")
    base = f"/a/{account['Id']}/templates"
    await browser.sign_in(owner.person.email, PASSWORD)
    empty = await browser.get(base)
    assert empty.status_code == 200 and "No templates yet" in empty.text and 'aria-current="page">Templates<' in empty.text

    await browser.get(f"{base}/new")
    bad = await browser.post(base, {"slug": "Not A Slug", "channel": "email", "subject": "Kept subject"})
    assert bad.status_code == 400 and 'id="slug-error"' in bad.text and 'value="Kept subject"' in bad.text
    broken = await browser.post(base, {"slug": "welcome", "channel": "email", "subject": "Hi {{ name",
                                       "text": "Hello {{ name }}"})
    assert broken.status_code == 422 and 'id="subject-error"' in broken.text and "Hello {{ name }}</textarea>" in broken.text

    made = await browser.post(base, {"slug": "welcome", "channel": "email", "name": "Welcome", "language": "en",
                                     "subject": "Hi {{ name }}", "text": "Hello {{ name }}, code {{ code }}",
                                     "html": "<p>Hello {{ name }}</p>"})
    assert made.status_code == 303 and made.headers["location"] == f"{base}/welcome?saved=1"
    page = await browser.get(f"{base}/welcome", params={"saved": "1"})
    assert page.status_code == 200 and "Template saved." in page.text and "Ready to use" in page.text
    assert "<code>code</code>, <code>name</code>" in page.text or "<code>name</code>, <code>code</code>" in page.text
    edited = await browser.post(base, {"existing": "welcome", "slug": "welcome", "channel": "email", "name": "Welcome",
                                       "subject": "Hi {{ name }}", "text": "Hello {{ name }}"})
    assert edited.status_code == 303
    listed = await browser.get(base)
    assert "1 template" in listed.text and "<code>name</code>" in listed.text and "<code>code</code>" not in listed.text

    # The live preview: rendered by the platform as a send would, nothing saved.
    shown = await browser.post(f"{base}/preview", {"existing": "welcome", "slug": "welcome", "channel": "email",
                                                   "subject": "Hi {{ name }}", "html": "<p>Hello {{ name }}</p>",
                                                   "sample": "name: <Ana>"}, headers={"HX-Request": "true"})
    assert shown.status_code == 200 and "<html" not in shown.text and "Hi &lt;Ana&gt;" in shown.text
    assert 'sandbox=""' in shown.text and "srcdoc=\"&lt;p&gt;Hello &amp;lt;Ana&amp;gt;&lt;/p&gt;\"" in shown.text
    lacking = await browser.post(f"{base}/preview", {"slug": "x", "channel": "sms", "text": "Code {{ code }}",
                                                     "sample": ""})
    assert lacking.status_code == 200 and "<html" in lacking.text and "Variables: code: required" in lacking.text
    assert "Code {{ code }}</textarea>" in lacking.text

    whatsapp = await browser.post(base, {"slug": "wa-hello", "channel": "whatsapp", "language": "en",
                                         "text": "Hello {{ name }}"})
    assert whatsapp.status_code == 303
    listed = await browser.get(base)
    assert "Waiting for WhatsApp" in listed.text or "Approved by WhatsApp" in listed.text or "Rejected" in listed.text
    assert (await browser.get(f"{base}/missing-one")).status_code == 404

    member = await signed_in_member(identity, dashboard, "console-tpl-member")
    await join(dashboard, owner, account["Id"], member, "member")
    await another_browser.sign_in(member.person.email, PASSWORD)
    read = await another_browser.get(f"{base}/welcome")
    assert read.status_code == 200 and "Only owners and admins of this account edit templates" in read.text
    refused = await another_browser.post(base, {"slug": "other", "channel": "sms", "text": "x"})
    assert refused.status_code == 403

    outsider, _ = await owner_with_account(identity, dashboard, "console-tpl-out", "Elsewhere")
    await another_browser.post("/sign-out")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    for path in (base, f"{base}/welcome", f"{base}/new"):
        assert (await another_browser.get(path)).status_code == 404, path
