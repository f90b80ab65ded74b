"""Schemathesis on the operator surface as platform staff (tests/http/test_fuzz.py fuzzes it as an
outsider, who only ever gets 404): no 5xx, every answer as described.

The ``ignored_auth`` check is left out here on purpose: it expects 401 or 403 when the credential
is dropped, and this surface answers 404 to anyone but staff, credential or not (contract D, issue
16: the surface is not confirmed to exist). tests/platform/test_admin_operator.py proves that 404.
"""

from __future__ import annotations

import subprocess
import tempfile

import pytest

from models.platform.blocklist import BlockEntry
from models.platform.platform_alert import PlatformAlertRule
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import signed_in_staff
from tests.http.test_fuzz import ASSETS, EXAMPLES, SCALE, SCHEMATHESIS

pytestmark = pytest.mark.slow  # fuzzing: Schemathesis as a subprocess against running systems

CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"
# Blocking a fuzzed domain (example.com...) would refuse the sends of the tests that follow (see the finally too).
BLOCKING = "^/api/admin/blacklist$"


async def test_the_operator_surface_as_staff(servers, dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "fuzzer")
    seconds = 20 * SCALE
    argv = [str(SCHEMATHESIS), "run", f"{servers('platform').url}/openapi.json", "--checks", CHECKS,
            "--max-examples", str(EXAMPLES), "--max-time", str(seconds), "--workers", "1", "--request-timeout", "10",
            "--phases", "examples,coverage,fuzzing", "--suppress-health-check", "all", "--no-color",
            "--include-path-regex", "^/api/admin/", "--exclude-path-regex", f"{ASSETS}|{BLOCKING}",
            "-H", f"Authorization: Bearer {staff.token}"]
    argv += ["--generation-deterministic"] if SCALE == 1 else []
    try:
        with tempfile.TemporaryDirectory() as scratch:
            run = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 120, cwd=scratch)
    finally:
        # The fuzzed alert rules would fire (and page staff) under the schedulers of later tests, and a fuzzed
        # suggestion it applied (the document links a suggestion to its apply) blocks sends platform-wide: a
        # blocked example.com refused the invitations of later tests of the process.
        await PlatformAlertRule.filter(created_by=staff.id).delete()
        await BlockEntry.filter(created_by=staff.id).delete()
    assert run.returncode == 0, run.stdout[-12000:] + run.stderr[-2000:]
