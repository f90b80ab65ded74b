"""What tests/house/test_fixtures_once.py checks: every session- and package-scoped fixture and the places it
is registered at (the node ids of the conftests and modules that define or import it). A run of the whole
suite keeps them from its own collection (tests/conftest.py); loaded with ``-p`` in a collection of its own,
this plugin writes them as JSON to the file named by HERALD_FIXTURE_REGISTRATIONS."""

from __future__ import annotations

import inspect
import json
import os

import pytest

OUTPUT = "HERALD_FIXTURE_REGISTRATIONS"


def definitions(session: pytest.Session) -> list:
    manager = session._fixturemanager  # no public API lists the registrations (`pytest --fixtures` reads these)
    if hasattr(manager, "_get_all_fixture_defs"):  # pytest 9
        return list(manager._get_all_fixture_defs())
    return [definition for definitions in manager._arg2fixturedefs.values() for definition in definitions]


def registrations(session: pytest.Session) -> list[dict]:
    """Every session- and package-scoped fixture with the places it is registered at."""
    found: dict[tuple[str, str], dict] = {}
    for definition in definitions(session):
        if definition.scope not in ("session", "package"):
            continue
        function = inspect.unwrap(definition.func)
        code = getattr(function, "__code__", None)
        where = (f"{function.__module__}.{function.__qualname__}"
                 + (f" ({os.path.relpath(code.co_filename)}:{code.co_firstlineno})" if code else ""))
        entry = found.setdefault((definition.argname, where), {
            "name": definition.argname, "scope": definition.scope, "function": where, "places": []})
        entry["places"].append(definition.baseid)
    return sorted(found.values(), key=lambda entry: (entry["name"], entry["function"]))


def whole_suite(session: pytest.Session) -> bool:
    """Whether this run collected the whole suite (``make test``, ``make test-fast``: no paths given)."""
    options = session.config.option
    return ([str(arg) for arg in session.config.args] == list(session.config.getini("testpaths"))
            and not (options.ignore or options.ignore_glob or options.deselect))


def pytest_collection_finish(session: pytest.Session) -> None:
    path = os.environ.get(OUTPUT)
    if not path:
        return
    with open(path, "w") as out:
        json.dump(registrations(session), out, indent=1)
