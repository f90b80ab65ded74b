"""Schemathesis against the running CRM, authenticated: a person with the admin role acting in an
account (/v1), and the service credential (/internal/v1). No 5xx, every answer as described."""

from __future__ import annotations

import pytest

from app.http.tenant_access import TENANT_HEADER
from tests.fixtures.identity import service_headers
from tests.http.test_fuzz import fuzz

pytestmark = pytest.mark.slow  # fuzzing: Schemathesis as a subprocess against running systems

INTERNAL = "^/internal/"


async def test_crm_v1_as_an_admin(crm_url, act):
    admin = await act("admin")
    fuzz(crm_url, f"Authorization: Bearer {admin.person.token}", f"{TENANT_HEADER}: {admin.tenant}", seconds=25,
         exclude=(INTERNAL,))


def test_crm_internal_with_the_service_credential(crm_url):
    fuzz(crm_url, f"Authorization: {service_headers()['Authorization']}", seconds=15, include=INTERNAL)
