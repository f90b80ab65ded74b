"""The experiments screens over HTTP, against the real pages system and runtime: the variants form
refusing weights that do not add up to 100 (every value kept, nothing sent), saving two variants
(one with its own headline), starting, the results saying there is no data yet, auto-stop refused
below 100 views then saved, promoting refused without a choice then done; a member reads without
any control and is refused a write in words; another account's person gets 404. And the pure parts:
the leader called only with enough views and 95 % confidence, the sample-ratio check, the form's
checks."""

from __future__ import annotations

import httpx
import pytest

from app.console.experiment import form, stats
from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.identity import PASSWORD


@pytest.fixture
async def pages_console(console, servers) -> str:
    servers("pages")
    servers("runtime")
    return console


async def draft_page(servers, owner, account_id: str) -> dict:
    async with httpx.AsyncClient(base_url=servers("pages").url, timeout=20,
                                 headers={**owner.auth, "X-Service-Tenant": account_id}) as pages:
        made = await pages.post("/v1/paginas", json={"Title": "Offer <b>", "Slug": "offer", "Domain": "",
                                                     "Blocks": [{"Type": "heading", "Text": "Old headline"}]})
    assert made.status_code == 201, made.text
    return made.json()["Pagina"]


async def test_variants_start_results_auto_stop_and_promotion(pages_console, browser, identity, dashboard, servers):
    owner, account = await owner_with_account(identity, dashboard, "console-experiments", "Experiments Co")
    subject = await draft_page(servers, owner, account["Id"])
    base = f"/a/{account['Id']}/experiments"
    await browser.sign_in(owner.person.email, PASSWORD)

    listed = await browser.get(base)
    assert listed.status_code == 200 and "Offer &lt;b&gt;" in listed.text and "No test" in listed.text
    shown = await browser.get(f"{base}/{subject['Id']}")
    assert shown.status_code == 200 and "This page is not published" in shown.text
    assert 'value="Original"' in shown.text and 'value="50"' in shown.text

    rows = {"name-0": "Original", "weight-0": "60", "headline-0": "", "name-1": "B", "weight-1": "30 %",
            "headline-1": "New headline", "action": "save"}
    refused = await browser.post(f"{base}/{subject['Id']}/variants", rows)
    assert refused.status_code == 400
    assert "The weights add up to 90 %; they must add up to exactly 100 %" in refused.text
    assert 'value="New headline"' in refused.text and "<title>Error: " in refused.text
    blank = await browser.post(f"{base}/{subject['Id']}/variants", {**rows, "name-1": "", "weight-1": "abc"})
    assert "Enter the name of variant 2" in blank.text
    assert "The weight of variant 2 must be a whole number from 0 to 100" in blank.text
    added = await browser.post(f"{base}/{subject['Id']}/variants", {**rows, "action": "add"})
    assert added.status_code == 200 and 'id="name-2"' in added.text

    saved = await browser.post(f"{base}/{subject['Id']}/variants", {**rows, "weight-1": "40"})
    assert saved.status_code == 303, saved.text
    draft = await browser.get(saved.headers["location"])
    assert "Variants saved." in draft.text and "New headline" in draft.text and "Visitors are split 60/40." in draft.text

    started = await browser.post(f"{base}/{subject['Id']}/start", {})
    assert started.status_code == 303, started.text
    running = await browser.get(started.headers["location"])
    assert "No views yet" in running.text and "0 of 0 views" in running.text
    assert 'hx-trigger="every 10s"' in running.text
    fragment = await browser.get(f"{base}/{subject['Id']}", headers={"HX-Request": "true"})
    assert '<section id="results"' in fragment.text
    assert fragment.headers["vary"] == "HX-Request" and "<html" not in fragment.text

    low = await browser.post(f"{base}/{subject['Id']}/auto-stop", {"enabled": "on", "min_views": "50",
                                                                  "confidence": "0.95"})
    assert low.status_code == 400 and "Views per variant must be a whole number from 100" in low.text
    rule = await browser.post(f"{base}/{subject['Id']}/auto-stop", {"enabled": "on", "min_views": "500",
                                                                   "confidence": "0.99"})
    assert rule.status_code == 303
    assert "Auto-stop saved." in (await browser.get(rule.headers["location"])).text

    unchosen = await browser.post(f"{base}/{subject['Id']}/promote", {})
    assert unchosen.status_code == 400 and "Choose the variant to publish as the page" in unchosen.text
    async with httpx.AsyncClient(base_url=servers("pages").url, timeout=20,
                                 headers={**owner.auth, "X-Service-Tenant": account["Id"]}) as pages:
        variants = (await pages.get(f"/v1/paginas/{subject['Id']}/variantes")).json()["Variantes"]
        wrong = await browser.post(f"{base}/{subject['Id']}/promote", {"variant": "var_nothing"})
        assert wrong.status_code == 404 and "Variant not found" in wrong.text
        promoted = await browser.post(f"{base}/{subject['Id']}/promote", {"variant": variants[1]["Id"]})
        assert promoted.status_code == 303
        ended = await browser.get(promoted.headers["location"])
        assert "The test has ended: B was published as the page." in ended.text and "Start a new test" in ended.text
        assert "Set up the variants of a new test" in ended.text
        page = (await pages.get(f"/v1/paginas/{subject['Id']}")).json()["Pagina"]
    assert page["Blocks"][0]["Text"] == "New headline" and page["Status"] == "publicado"
    assert "Ended" in (await browser.get(base)).text


async def test_member_reads_and_outsider_gets_404(pages_console, browser, another_browser, identity, dashboard,
                                                  servers):
    owner, account = await owner_with_account(identity, dashboard, "console-exp-own", "Experiments Owned")
    subject = await draft_page(servers, owner, account["Id"])
    member = await signed_in_member(identity, dashboard, "console-exp-member")
    await join(dashboard, owner, account["Id"], member)
    await browser.sign_in(member.person.email, PASSWORD)
    base = f"/a/{account['Id']}/experiments"
    read = await browser.get(f"{base}/{subject['Id']}")
    assert read.status_code == 200 and "Only owners and admins set up tests." in read.text
    assert "Save variants" not in read.text
    refused = await browser.post(f"{base}/{subject['Id']}/start", {})
    assert refused.status_code == 403 and "Only owners and admins start tests." in refused.text

    outsider = await signed_in_member(identity, dashboard, "console-exp-out")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    assert (await another_browser.get(base)).status_code == 404
    assert (await another_browser.get(f"{base}/{subject['Id']}")).status_code == 404
    await browser.get(base)
    assert (await browser.get(f"{base}/pag_nothing")).status_code == 404


def test_a_leader_is_called_only_with_enough_views_and_confidence():
    few = stats.verdict([stats.Row("a", "A", 50, 40, 2), stats.Row("b", "B", 50, 40, 9)])
    assert few.leader is None and few.ahead.name == "B" and not few.enough
    assert few.reason.startswith("Not enough data to call a leader") and "(A has 40)" in few.reason
    close = stats.verdict([stats.Row("a", "A", 50, 1000, 100), stats.Row("b", "B", 50, 1000, 110)])
    assert close.leader is None and close.enough and "could still be chance" in close.reason
    clear = stats.verdict([stats.Row("a", "A", 50, 1000, 100), stats.Row("b", "B", 50, 1000, 140)])
    assert clear.leader.name == "B" and clear.confidence > 0.99
    tie = stats.verdict([stats.Row("a", "A", 50, 500, 10), stats.Row("b", "B", 50, 500, 10)])
    assert tie.leader is None and tie.ahead is None and "same rate" in tie.reason
    assert stats.verdict([stats.Row("a", "A", 50, 0, 0), stats.Row("b", "B", 50, 0, 0)]).reason.startswith("No views")


def test_the_split_is_checked_against_the_weights():
    assert abs(stats.chi2_survival(3.841, 1) - 0.05) < 0.001 and abs(stats.chi2_survival(7.815, 3) - 0.05) < 0.001
    assert stats.sample_ratio([stats.Row("a", "A", 50, 510, 1), stats.Row("b", "B", 50, 490, 1)]) is None
    skewed = stats.sample_ratio([stats.Row("a", "A", 50, 600, 1), stats.Row("b", "B", 50, 400, 1)])
    assert skewed and "A 60% (weight 50 %)" in skewed
    assert stats.sample_ratio([stats.Row("a", "A", 90, 900, 1), stats.Row("b", "B", 10, 100, 1)]) is None


def test_the_form_checks_names_weights_and_their_sum():
    saved = [{"Name": "Original", "Weight": 50}]
    assert form.check([{"name": "B", "weight": "50", "headline": ""}], saved) == {}
    assert form.check([{"name": "original", "weight": "50", "headline": ""}], saved) == {
        "name-0": "Give variant 2 a name no other variant has"}
    assert form.check([{"name": "B", "weight": "40", "headline": ""}], saved)["variants"] == (
        "The weights add up to 90 % (with the 50 % of the variants already saved); they must add up to exactly 100 %")
    assert form.check([{"name": "A", "weight": "100", "headline": ""}], [])["variants"].startswith("A test needs")
    assert form.check([], saved)["name-0"] == "Enter the name of variant 2"
    assert form.blocks_for([{"Type": "text", "Text": "x"}, {"Type": "heading", "Text": "Old"}], "New") == [
        {"Type": "text", "Text": "x"}, {"Type": "heading", "Text": "New"}]
    assert form.blocks_for([{"Type": "text", "Text": "x"}], "New")[0] == {"Type": "heading", "Text": "New", "Level": 1}
    assert form.blocks_for([{"Type": "text", "Text": "x"}], "") is None
