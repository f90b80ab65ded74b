"""The pages system's house shape: its services import no Sanic and no HTTP surface (they take a
connection, the account and plain values)."""

from __future__ import annotations

import subprocess
import sys

from tests.fixtures.harness import ROOT

SERVICES = ("page", "form", "redirect", "domain", "routing", "experiment", "media", "ai")


def test_importing_a_pages_service_imports_no_sanic_and_no_app():
    code = ("import sys\n"
            + "".join(f"import app.pages.{noun}.service\n" for noun in SERVICES)
            + "loaded = [name for name in ('sanic', 'app.pages.server', 'app.pages.gate') if name in sys.modules]\n"
              "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
