"""``herald migrate --check``: the models and the committed migrations of every system agree, and a
model changed without its migration is caught (herald/migrations.py; CI runs the check: .ci/run).

The check runs as the command, from the checkout and from a copy of its packages with one model
changed. Its database URL names a closed port: the check compares in memory and must open nothing.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.harness import ROOT

pytestmark = pytest.mark.slow  # the `herald` command as a process, five times (docs/testing.md)

PACKAGES = ("app", "herald", "kit", "models", "providers", "schedules", "tasks")
NOWHERE = "postgres://check@127.0.0.1:1/nothing"


def check(root: Path, tmp: Path, *systems: str) -> subprocess.CompletedProcess:
    # `python -m` puts the working directory first on sys.path: the code under `root` is what runs.
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": NOWHERE, "HERALD_VAR_DIR": str(tmp / "var")}
    return subprocess.run([sys.executable, "-m", "herald.cli", "migrate", "--check", *systems], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def copy_of_checkout(tmp: Path) -> Path:
    copy = tmp / "checkout"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, copy / package, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_clean_tree_has_no_difference(tmp_path):
    result = check(ROOT, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == ("the models and the committed migrations agree: "
                                     "platform, identity, crm, pages, runtime, mail")


def test_a_model_changed_without_its_migration_fails(tmp_path):
    copy = copy_of_checkout(tmp_path)
    model = copy / "models" / "platform" / "report.py"
    source = model.read_text()
    anchor = "    before = fields.DatetimeField()\n"
    assert source.count(anchor) == 1
    model.write_text(source.replace(anchor, anchor + "    note = fields.CharField(max_length=40, null=True)\n"))

    result = check(copy, tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "platform: the models differ from the committed migrations" in result.stdout
    assert "  - Add field note to ReportDailyFold" in result.stdout
    assert "field=fields.CharField(null=True, max_length=40)" in result.stdout  # the migration it would write
    for system in ("identity", "crm", "pages", "runtime", "mail"):
        assert f"\n{system}: " not in result.stdout
    # Only the changed copy differs; the same check of the checkout still passes.
    assert check(ROOT, tmp_path, "platform").returncode == 0


def test_a_changed_table_description_is_a_difference(tmp_path):
    """Tortoise takes the first line of a model's docstring as its table's comment (the cause of the
    migration `makemigrations platform` used to write on a clean tree: 0019_table_comments)."""
    copy = copy_of_checkout(tmp_path)
    model = copy / "models" / "platform" / "support_session.py"
    first_line = "One read an operator made inside a support session: the account's trail of what was seen."
    source = model.read_text()
    assert source.count(first_line) == 1
    model.write_text(source.replace(first_line, "A read made in a support session."))

    result = check(copy, tmp_path, "platform")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "  - Alter options for SupportRead" in result.stdout
    assert "'table_description': 'A read made in a support session.'" in result.stdout
