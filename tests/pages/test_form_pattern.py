"""A form field's Pattern is a tenant's regular expression run on anonymous input (issue 38): it is
compiled by RE2 (kit/patterns.py), never by a backtracking engine; pages refuses at save, with
422 naming the field, a pattern RE2 cannot run; the migration lists those stored before."""

from __future__ import annotations

import importlib
import logging
import re
import time

import pytest
from tortoise import Tortoise

from kit import patterns
from models.pages import Form

RE2_MIGRATION = importlib.import_module("models.pages.migrations.0002_form_patterns_re2")

FIELDS = [{"Name": "email", "Label": "E-mail", "Type": "email", "Required": True},
          {"Name": "code", "Label": "Code", "Type": "text", "Pattern": "[A-Z]{3}-[0-9]{4}"}]


def with_pattern(pattern: str) -> dict:
    return {"Name": "Codes", "Fields": [FIELDS[0], {**FIELDS[1], "Pattern": pattern}]}


def test_tenant_patterns_are_compiled_and_run_by_re2_which_never_backtracks():
    compiled = patterns.compile(r"(a+)+$")
    assert patterns.engine_of(compiled) == "RE2"
    assert patterns.engine_of(re.compile(r"(a+)+$")) == "re"  # the check tells another engine apart
    started = time.monotonic()
    assert not patterns.fullmatch(r"(a+)+$", "a" * 10_000 + "!")  # exponential for a backtracking engine
    assert patterns.fullmatch(r"(a+)+$", "a" * 10_000)
    assert time.monotonic() - started < 1
    # RE2 refuses what it cannot run in linear time instead of handing it to re (no fallback) ...
    for pattern in (r"(a)\1", r"(?=a)a", r"(?<=a)b", r"(?P<x>a)(?P=x)", "(", r"a\Z", 5):
        with pytest.raises(patterns.UnsupportedPattern):
            patterns.compile(pattern)
    # ... and takes RE2's own syntax, which Python's re refuses.
    assert patterns.fullmatch(r"\pL+", "José")
    with pytest.raises(re.error):
        re.compile(r"\pL+")


async def test_a_pattern_re2_cannot_run_is_refused_at_save_with_422_naming_the_field(pages, account):
    before = (await pages.get("/v1/formularios", headers=account.headers)).json()["Formularios"]
    for pattern, reason in ((r"(a)\1", "invalid escape sequence"), (r"(?=a)a", "invalid perl operator")):
        refused = await pages.post("/v1/formularios", headers=account.headers, json=with_pattern(pattern))
        assert refused.status_code == 422, refused.text
        error = refused.json()["Error"]
        assert error["Code"] == "ValidationError"
        assert set(error["Details"]) == {"Fields.1.Pattern"}
        assert "'code'" in error["Details"]["Fields.1.Pattern"] and reason in error["Details"]["Fields.1.Pattern"]
        assert "Fields.1.Pattern" in error["Message"] and "'code'" in error["Message"]
    assert (await pages.get("/v1/formularios", headers=account.headers)).json()["Formularios"] == before

    # RE2's syntax is the one accepted: \pL (letters) is RE2's and not Python's.
    made = await pages.post("/v1/formularios", headers=account.headers, json=with_pattern(r"\pL+"))
    assert made.status_code == 201, made.text
    form = made.json()["Formulario"]
    assert form["Fields"][1]["Pattern"] == r"\pL+"

    # PATCH stores patterns too: refused the same way, and the form stays as it was.
    path = f"/v1/formularios/{form['Id']}"
    patched = await pages.patch(path, headers=account.headers,
                                json={"Fields": [FIELDS[0], {**FIELDS[1], "Pattern": r"(?<=x)y"}]})
    assert patched.status_code == 422, patched.text
    assert set(patched.json()["Error"]["Details"]) == {"Fields.1.Pattern"}
    assert (await pages.get(path, headers=account.headers)).json()["Formulario"] == form
    fine = await pages.patch(path, headers=account.headers, json={"Fields": FIELDS})
    assert fine.status_code == 200 and fine.json()["Formulario"]["Fields"][1]["Pattern"] == "[A-Z]{3}-[0-9]{4}"


async def test_the_migration_lists_stored_patterns_re2_refuses_and_changes_nothing(account, caplog):
    # Saved before pages compiled patterns with RE2: written straight to the table.
    old = await Form.create(tenant_id=account.tenant_id, name="Old", destination={}, fields_spec=[
        FIELDS[0], {**FIELDS[1], "Pattern": r"(\d)\1"}, {"Name": "ok", "Label": "Ok", "Type": "text",
                                                         "Pattern": "[0-9]+"}])
    fine = await Form.create(tenant_id=account.tenant_id, name="Fine", destination={}, fields_spec=FIELDS)
    with caplog.at_level(logging.WARNING, logger="herald.migrations.pages"):
        reported = await RE2_MIGRATION.report_unsupported(Tortoise.get_connection("pages"))
    assert (old.public_id, "code") in reported
    assert not [found for found in reported if found[0] == fine.public_id or found == (old.public_id, "ok")]
    logged = [record.getMessage() for record in caplog.records if old.public_id in record.getMessage()]
    assert len(logged) == 1 and "'code'" in logged[0] and "invalid escape sequence" in logged[0]
    kept = await Form.get(public_id=old.public_id)
    assert kept.fields_spec == old.fields_spec
