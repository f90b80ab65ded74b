"""The registry of actors (kit/actors.py) is the only place job names are spelled."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from kit.actors import Actor, Queue, systems_with_outbox

ROOT = Path(__file__).resolve().parents[2]


def test_every_registered_name_is_a_declared_actor_on_its_queue():
    import tasks

    declared = {name: tasks.broker.get_actor(name).queue_name for name in tasks.broker.get_declared_actors()}
    registered = {ref.name: ref.queue.value for ref in Actor.all()}
    assert registered == declared
    assert set(declared.values()) <= {queue.value for queue in Queue}


def test_each_system_with_jobs_has_an_outbox_table():
    from tortoise import Tortoise

    for system in systems_with_outbox():
        models = Tortoise.apps[system]
        assert any(model._meta.db_table == "outbox" for model in models.values()), system


def test_outbox_rows_are_written_only_through_models_outbox():
    """No hand-written INSERT INTO outbox, and no actor name as a string literal, outside the
    registry and models/outbox.py (bench/floor.py measures a raw floor on purpose)."""
    allowed = {Path("models/outbox.py"), Path("kit/actors.py"), Path("bench/floor.py")}
    names = [re.escape(ref.name) for ref in Actor.all()]
    literal = re.compile(r"""["'](%s)["']""" % "|".join(names))
    offenders = []
    for folder in ("app", "models", "tasks", "schedules", "providers", "herald"):
        for path in (ROOT / folder).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if relative in allowed or "migrations" in relative.parts:
                continue
            text = path.read_text()
            if "INSERT INTO outbox" in text or literal.search(text):
                offenders.append(str(relative))
    assert offenders == []


def test_the_registry_and_models_import_no_broker_and_no_sanic():
    code = ("import sys, kit.actors, models.outbox, models.platform, models.identity; "
            "assert 'dramatiq' not in sys.modules and 'sanic' not in sys.modules, "
            "[m for m in ('dramatiq', 'sanic') if m in sys.modules]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_a_worker_process_imports_no_sanic_app():
    code = ("import sys, tasks; "
            "assert 'sanic' not in sys.modules, 'sanic'; "
            "assert not [m for m in sys.modules if m == 'app.platform.server' or m == 'app.identity.server'], 'server'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
