"""The runtime's house shape: its services and models import no Sanic and no app server."""

from __future__ import annotations

import subprocess
import sys

from tests.fixtures.harness import ROOT

SERVICES = ("pixel", "collect", "analytics", "replay")


def test_importing_a_service_or_the_consumer_models_imports_no_sanic():
    code = ("import sys\n"
            + "".join(f"import app.runtime.{noun}.service\n" for noun in SERVICES)
            + "import models.runtime, models.runtime.traffic, models.runtime.stream\n"
              "loaded = [name for name in ('sanic', 'app.runtime.server') if name in sys.modules]\n"
              "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
