"""The Grafana dashboard (docs/grafana/herald.json, docs/observability.md) parses, takes its
Prometheus data source from a template variable, and queries only metrics the code defines: a
renamed metric fails here, not on an operator's empty panel."""

from __future__ import annotations

import json
import re
from pathlib import Path

import dramatiq

from tests.fixtures.harness import ROOT

DASHBOARD = ROOT / "docs" / "grafana" / "herald.json"
SOURCES = ("app", "kit", "models", "tasks", "schedules", "providers", "herald")
# A metric's name where the code makes it: Counter("herald_..."), Histogram(\n "herald_..."), gauge("herald_...").
DEFINED = re.compile(r'(?:Counter|Gauge|Histogram|Summary|gauge)\(\s*"((?:herald|dramatiq)_\w+)"')
QUERIED = re.compile(r"\b((?:herald|dramatiq)_\w+)")
SERIES_SUFFIXES = ("_bucket", "_count", "_sum", "_created")


def defined_names() -> set[str]:
    files = [path for folder in SOURCES for path in (ROOT / folder).rglob("*.py")]
    files.append(Path(dramatiq.__file__).parent / "middleware" / "prometheus.py")  # dramatiq_* of the exporter
    return {name for path in files for name in DEFINED.findall(path.read_text())}


def family(name: str) -> str:
    for suffix in SERIES_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def test_the_dashboard_queries_only_metrics_the_code_defines():
    dashboard = json.loads(DASHBOARD.read_text())
    targets = [target for panel in dashboard["panels"] for target in panel.get("targets", [])]
    queried = {name for target in targets for name in QUERIED.findall(target["expr"])}
    defined = defined_names()
    assert {"herald_messages_accepted_total", "herald_deliveries_total", "herald_provider_call_seconds",
            "herald_bounces_total", "herald_webhook_deliveries_total", "herald_outbox_backlog",
            "herald_outbox_relay_lag_seconds", "herald_stream_length", "herald_queue_depth",
            "herald_database_connections"} <= {family(name) for name in queried}
    unknown = {name for name in queried if name not in defined and family(name) not in defined}
    assert not unknown, f"the dashboard queries metrics no code defines: {sorted(unknown)}"


def test_every_panel_takes_the_data_source_from_the_template_variable():
    dashboard = json.loads(DASHBOARD.read_text())
    [variable] = [found for found in dashboard["templating"]["list"] if found["type"] == "datasource"]
    assert variable["query"] == "prometheus"
    reference = "${" + variable["name"] + "}"
    panels = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    assert panels and all(panel["datasource"]["uid"] == reference for panel in panels)
    assert all(target["datasource"]["uid"] == reference for panel in panels for target in panel["targets"])
