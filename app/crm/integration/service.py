"""Conversion integrations of an account: which CRM events become which conversion on which ad
platform (``meta_capi``: the Meta Conversions API; ``ga4``: the GA4 Measurement Protocol). The
access token or API secret is sealed at rest and never shown again. Deliveries go through the one
drain (tasks/crm/deliveries.py), which speaks each platform's API.
"""

from __future__ import annotations

import re
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.integration.schemas import IntegrationWrite
from app.http import errors
from app.http.paging import KeysetPage, Page
from models.crm import ConversionIntegration, CrmDelivery
from models.crm.delivery import EVENT_TYPES, IntegrationKind, TargetKind, event_of, insert_deliveries, seal_secret

TEST_EVENT = "integration.test"
PIXEL_ID = re.compile(r"[0-9]{5,20}")
MEASUREMENT_ID = re.compile(r"G-[A-Z0-9]{4,20}")
EVENT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")


async def integration(conn: BaseDBAsyncClient, tenant: str, integration_id: str) -> ConversionIntegration:
    found = await ConversionIntegration.get_or_none(tenant=tenant, public_id=integration_id, using_db=conn)
    if found is None:
        raise errors.NotFound("Conversion integration not found.")
    return found


async def list_integrations(conn: BaseDBAsyncClient, tenant: str, page: KeysetPage) -> Page[ConversionIntegration]:
    return await page.fetch(conn, ConversionIntegration.filter(tenant=tenant).using_db(conn),
                            audience=f"{tenant}:integracoes")


def _invalid(field: str, problem: str) -> errors.Unprocessable:
    return errors.Unprocessable(f"{field} {problem}.", details={field: problem})


def _configuration(body: IntegrationWrite, previous: ConversionIntegration | None) -> tuple[dict[str, Any], str | None]:
    """(public configuration, the new secret or None to keep the previous one); 422 when incomplete."""
    if body.tipo not in tuple(IntegrationKind):
        raise _invalid("tipo", "must be meta_capi or ga4")
    unknown = [event for event in body.mapeamentos if event not in EVENT_TYPES]
    if unknown:
        raise _invalid("mapeamentos", f"keys must be CRM events ({', '.join(EVENT_TYPES)})")
    if any(not EVENT_NAME.fullmatch(name) for name in body.mapeamentos.values()):
        raise _invalid("mapeamentos", "values must be event names (a letter, then letters, digits or _, up to 40)")
    keep = previous is not None and previous.kind == body.tipo
    if body.tipo == IntegrationKind.META_CAPI:
        if body.measurement_id is not None or body.api_secret is not None:
            raise _invalid("tipo", "meta_capi takes pixel_id, access_token and test_event_code")
        if body.pixel_id is None or not PIXEL_ID.fullmatch(body.pixel_id):
            raise _invalid("pixel_id", "is required: the Meta pixel (dataset) id, digits")
        if body.access_token is None and not keep:
            raise _invalid("access_token", "is required")
        return {"pixel_id": body.pixel_id, "test_event_code": body.test_event_code}, body.access_token
    if body.pixel_id is not None or body.access_token is not None or body.test_event_code is not None:
        raise _invalid("tipo", "ga4 takes measurement_id and api_secret")
    if body.measurement_id is None or not MEASUREMENT_ID.fullmatch(body.measurement_id):
        raise _invalid("measurement_id", "is required: the GA4 measurement id (G-XXXXXXX)")
    if body.api_secret is None and not keep:
        raise _invalid("api_secret", "is required")
    return {"measurement_id": body.measurement_id}, body.api_secret


async def create(conn: BaseDBAsyncClient, tenant: str, body: IntegrationWrite) -> ConversionIntegration:
    config, secret = _configuration(body, None)
    return await ConversionIntegration.create(
        tenant=tenant, name=body.nome, kind=body.tipo, config=config, mappings=dict(body.mapeamentos),
        enabled=body.ativo, secret_sealed=seal_secret(TargetKind.INTEGRATION, tenant, secret), using_db=conn)


async def replace(conn: BaseDBAsyncClient, tenant: str, integration_id: str, body: IntegrationWrite) -> ConversionIntegration:
    """Replace the whole configuration (the secret may be left out to keep the current one when the
    kind does not change); a fresh start for the breaker."""
    row = await integration(conn, tenant, integration_id)
    config, secret = _configuration(body, row)
    row.name, row.kind, row.config, row.mappings, row.enabled = (body.nome, body.tipo, config, dict(body.mapeamentos),
                                                                 body.ativo)
    if secret is not None:
        row.secret_sealed = seal_secret(TargetKind.INTEGRATION, tenant, secret)
    row.consecutive_failures, row.breaker_open_until = 0, None
    await row.save(using_db=conn)
    return row


async def delete(conn: BaseDBAsyncClient, tenant: str, integration_id: str) -> None:
    row = await integration(conn, tenant, integration_id)
    await row.delete(using_db=conn)


async def test(conn: BaseDBAsyncClient, tenant: str, integration_id: str) -> CrmDelivery:
    """A pending test conversion through the same drain as the real ones (contract F, rule 4):
    sent as the integration's first mapped conversion, for a sample contact (Meta: with the
    integration's test_event_code when it has one)."""
    row = await integration(conn, tenant, integration_id)
    event = event_of(tenant, TEST_EVENT, {"contato": {"id": "ctt_test", "email": "test@example.com",
                                                      "telefone": "+15550000000", "nome": "Test",
                                                      "id_externo": None, "atributos": {}, "inscrito": True}})
    [delivery_id] = await insert_deliveries(conn, tenant, event, [(TargetKind.INTEGRATION.value, row.id)], test=True)
    return await CrmDelivery.get(public_id=delivery_id, using_db=conn)
