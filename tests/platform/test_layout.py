"""The platform's house shape: services import no Sanic, and every refusal of a service is an
error of the one hierarchy (rendered by the one renderer, printed by the CLI)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from app.http import errors
from app.platform.errors import AccountError, ConflictError, DomainError, NotFoundError, ScopeError, UnknownDomain
from herald.domains import CommandError
from tests.fixtures.harness import ROOT

SERVICES = ("account", "api_key", "device", "domain", "message", "receipt", "sender", "tenant", "webhook")


def test_importing_a_service_imports_no_sanic_and_no_app():
    code = ("import sys\n"
            + "".join(f"import app.platform.{noun}.service\n" for noun in SERVICES)
            + "loaded = [name for name in ('sanic', 'app.platform.server') if name in sys.modules]\n"
              "assert not loaded, loaded\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("error, status, code", [
    (AccountError("name must not be empty"), 422, "ValidationError"),
    (NotFoundError("no tenant acc_x"), 404, "NotFound"),
    (ConflictError("slug 'a' is already in use"), 409, "Conflict"),
    (ScopeError("unknown scope(s): x", ("email:send",)), 422, "ValidationError"),
    (DomainError("'x' is not a domain name that can be added"), 422, "ValidationError"),
    (UnknownDomain("no domain x on acc_x; add it first"), 404, "NotFound"),
    (CommandError("--settings is not valid JSON"), 400, "InvalidRequest"),
])
def test_every_refusal_is_an_http_error_that_keeps_its_message(error, status, code):
    assert isinstance(error, errors.HttpError) and (error.status, error.code) == (status, code)
    assert str(error) == error.message  # what `herald ...` prints after "herald: "
    if isinstance(error, NotFoundError):
        assert isinstance(error, AccountError) and isinstance(error, errors.NotFound)


def test_a_scope_refusal_lists_the_valid_scopes():
    assert str(ScopeError("at least one scope is required", ("forms:read", "pages:read"))) == \
        "at least one scope is required; valid scopes: forms:read, pages:read"
