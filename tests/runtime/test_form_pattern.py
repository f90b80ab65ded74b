"""A form field's Pattern on the runtime (issue 38): the tenant's regular expression runs in RE2 on
anonymous input no longer than the field's MaxLength, so no submission can hold the event loop
(``/healthz`` answers meanwhile); a pattern stored before pages checked it with RE2 is refused with
a clear 422 naming the field, never a 500."""

from __future__ import annotations

import asyncio
import time

import pytest

from models.pages import Form
from models.runtime.lead import Submission
from tests.runtime.conftest import publish

EMAIL = {"Name": "email", "Label": "E-mail", "Type": "email"}


@pytest.fixture(autouse=True)
async def fresh_address_limit(redis):
    """Every test posts from 127.0.0.1: start each with the per-address window empty."""
    async for key in redis.scan_iter(match="herald:rl:forms:addr:*"):
        await redis.delete(key)


async def form_with(pages, site, slug: str, *fields: dict) -> dict:
    """A form made through pages, on a published page ``/slug`` of the site."""
    made = await pages.post("/v1/formularios", headers=site.headers,
                            json={"Name": "Codes", "Fields": [EMAIL, *fields], "SuccessMessage": "Got it."})
    assert made.status_code == 201, made.text
    form = made.json()["Formulario"]
    await publish(pages, site, slug, [{"Type": "form", "FormId": form["Id"]}])
    return form


async def stored(tenant: str) -> int:
    return await Submission.filter(tenant=tenant).count()


async def test_a_catastrophic_pattern_answers_promptly_and_healthz_answers_meanwhile(pages, web, site):
    form = await form_with(pages, site, "codes", {"Name": "code", "Label": "Code", "Type": "text",
                                                  "Pattern": "(a+)+$", "MaxLength": 10_000},
                           {"Name": "nome", "Label": "Name", "Type": "text", "Pattern": r"\pL+( \pL+)*"})
    # Exponential for a backtracking engine (27 characters took 9 s); 10,000 characters is the most
    # a field can take (pages' ceiling of MaxLength), so the pattern does run on all of it.
    evil = "a" * 9_999 + "!"

    async def submit():
        started = time.monotonic()
        answer = await web.post("/codes", headers={"Host": site.host}, data={"_form": form["Id"], "code": evil})
        return answer, time.monotonic() - started

    async def healthz():
        await asyncio.sleep(0.05)  # the submission is on its way first
        started = time.monotonic()
        answer = await web.get("/healthz", timeout=5)
        return answer, time.monotonic() - started

    (sent, sent_took), (health, health_took) = await asyncio.gather(submit(), healthz())
    assert sent.status_code == 400 and "code does not have the expected format" in sent.text
    assert health.status_code == 200
    assert health_took < 1, health_took
    assert sent_took < 10, sent_took  # generous: a shared 2-core machine; a backtracking engine never ends
    assert await stored(site.tenant) == 0

    # The pattern applies (a match goes through), with RE2's syntax: \pL is RE2's, not Python's re's.
    fine = await web.post("/codes", headers={"Host": site.host},
                          data={"_form": form["Id"], "code": "a" * 10_000, "nome": "José Ávila"})
    assert fine.status_code == 200, fine.text
    keyed = await web.post(f"/v1/forms/{form['Id']}/submissions", headers={"Authorization": f"Bearer {site.key}"},
                           json={"Fields": {"code": "aaa", "nome": "Ana 2"}})
    assert keyed.status_code == 400 and keyed.json()["Error"]["Details"] == {"nome": "does not have the expected format"}
    assert await stored(site.tenant) == 1


async def test_a_stored_pattern_re2_refuses_is_a_clear_422_naming_the_field(pages, web, site):
    # Saved before pages compiled patterns with RE2 (pages refuses it now): written straight to its table.
    old = await Form.create(tenant_id=site.tenant, name="Old", destination={}, fields_spec=[
        EMAIL, {"Name": "code", "Label": "Code", "Type": "text", "Pattern": r"(\d)\1"},
        {"Name": "ok", "Label": "Ok", "Type": "text", "Pattern": "[0-9]+"}])
    await publish(pages, site, "old", [{"Type": "form", "FormId": old.public_id}])

    keyed = await web.post(f"/v1/forms/{old.public_id}/submissions", headers={"Authorization": f"Bearer {site.key}"},
                           json={"Fields": {"email": "ana@example.com", "code": "11", "ok": "x"}})
    assert keyed.status_code == 422, keyed.text
    error = keyed.json()["Error"]
    assert error["Code"] == "ValidationError"
    assert error["Details"] == {"code": "this field's pattern cannot be checked", "ok": "does not have the expected format"}
    assert "code: this field's pattern cannot be checked" in error["Message"]

    page = await web.post("/old", headers={"Host": site.host}, data={"_form": old.public_id, "code": "11"})
    assert page.status_code == 422 and "pattern cannot be checked" in page.text
    # A value left empty is not matched: nothing to check, so the rest of the form still works.
    empty = await web.post("/old", headers={"Host": site.host}, data={"_form": old.public_id, "ok": "42"})
    assert empty.status_code == 200, empty.text
    assert await stored(site.tenant) == 1


async def test_a_value_longer_than_max_length_is_refused_before_its_pattern_runs(pages, web, site):
    form = await form_with(pages, site, "short", {"Name": "code", "Label": "Code", "Type": "text",
                                                  "Pattern": "(a|aa)+$", "MaxLength": 30},
                           {"Name": "note", "Label": "Note", "Type": "text", "Pattern": "(b|bb)+$"})
    key = {"Authorization": f"Bearer {site.key}"}
    long = await web.post(f"/v1/forms/{form['Id']}/submissions", headers=key,
                          json={"Fields": {"code": "a" * 31, "note": "b" * 1000}})
    assert long.status_code == 400, long.text
    assert long.json()["Error"]["Details"] == {"code": "must be at most 30 characters"}
    # Without MaxLength a field takes at most 1,000 characters (a browser's post is not held to the
    # JSON body's own 1,000-character cap).
    posted = await web.post("/short", headers={"Host": site.host},
                            data={"_form": form["Id"], "code": "a" * 30, "note": "b" * 1001})
    assert posted.status_code == 400 and "note must be at most 1000 characters" in posted.text
    assert await stored(site.tenant) == 0
    within = await web.post(f"/v1/forms/{form['Id']}/submissions", headers=key,
                            json={"Fields": {"code": "a" * 30, "note": "b" * 1000}})
    assert within.status_code == 201, within.text
