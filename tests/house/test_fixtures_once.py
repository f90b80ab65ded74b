"""Every session- and package-scoped fixture is registered at one place. Pytest registers a fixture at each
conftest and module that defines or imports it (``from tests.x import fixture``, or a star import of a module
that has it), and each registration is a fixture of its own: a session fixture imported into seven modules
makes seven instances, each kept to the end of the run (the same servers started seven times, all left
running). A fixture that several folders use is defined once and registered once, in the conftest of the
narrowest folder that holds them all (tests/conftest.py for several top folders); modules take it by name.

Pytest's own registrations are read by tests/house/fixture_registrations.py: from this run's collection when
it is the whole suite, else from a collection of the whole suite in a pytest process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.fixtures.harness import ROOT
from tests.conftest import REGISTRATIONS
from tests.house.fixture_registrations import OUTPUT

def registrations(request, tmp_path) -> list[dict]:
    """This run's own, when it collected the whole suite (``make test``: no cost); else a collection of the
    whole suite in a pytest process of its own (a run of some files sees only their fixtures)."""
    if REGISTRATIONS in request.config.stash:
        return request.config.stash[REGISTRATIONS]
    output = tmp_path / "registrations.json"
    env = {**os.environ, OUTPUT: str(output)}
    env.pop("PYTEST_ADDOPTS", None)  # the outer run's options (`-n 2`, a -k) are not this collection's
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
         "-p", "tests.house.fixture_registrations"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0 and output.exists(), (
        f"collecting the suite failed (exit {done.returncode}), so its fixtures cannot be checked:\n"
        f"{done.stdout[-4000:]}\n{done.stderr[-2000:]}")
    return json.loads(output.read_text())


def test_every_session_and_package_fixture_is_registered_once(request, tmp_path):
    found = registrations(request, tmp_path)
    assert any(entry["name"] == "servers" for entry in found), "the collection saw no session fixture at all"
    repeated = [entry for entry in found if len(entry["places"]) > 1]
    assert not repeated, (
        "session- or package-scoped fixtures registered at more than one place:\n"
        + "".join(f"  {entry['name']} ({entry['scope']}, {entry['function']}): {len(entry['places'])} registrations, "
                  f"at {', '.join(place or '<plugin>' for place in sorted(entry['places']))}\n" for entry in repeated)
        + "Each conftest or module that defines or imports a fixture registers it, and each registration is an "
          "instance of its own, kept to the end of the run: the same servers started once per registration and "
          "all left running. Register it once, in the conftest of the narrowest folder that holds every test "
          "using it (tests/conftest.py when several top folders do), and drop the other imports: tests take "
          "fixtures by name, no import needed (a helper module can keep exporting the name as long as no "
          "conftest or test module imports it).")
