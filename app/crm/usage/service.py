"""Usage of an account: local counts from the CRM's database, plus quota and counters from the
platform (``GET /internal/v1/tenants/{account}/usage``, through app/http/services.py with its
timeouts and breaker). When the platform does not answer the local counts still answer, with
``core_disponivel`` false (contract F, rule 7)."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timezone
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.services import ServiceClient

log = logging.getLogger("herald.crm")

PERIOD = re.compile(r"([0-9]{4})-(0[1-9]|1[0-2])")

_LOCAL = """
SELECT
  (SELECT count(*) FROM contacts WHERE tenant = $1) AS contatos,
  (SELECT count(*) FROM contacts WHERE tenant = $1 AND created_at >= $2 AND created_at < $3) AS contatos_criados,
  (SELECT count(*) FROM contact_lists WHERE tenant = $1) AS listas,
  (SELECT count(*) FROM segments WHERE tenant = $1) AS segmentos,
  (SELECT count(*) FROM journeys WHERE tenant = $1) AS jornadas,
  (SELECT count(*) FROM crm_destinations WHERE tenant = $1) AS destinos,
  (SELECT count(*) FROM crm_conversion_integrations WHERE tenant = $1) AS integracoes,
  (SELECT count(*) FROM crm_deliveries WHERE tenant = $1 AND created_at >= $2 AND created_at < $3) AS entregas,
  (SELECT count(*) FROM crm_deliveries WHERE tenant = $1 AND created_at >= $2 AND created_at < $3
     AND status = 'failed') AS entregas_falhas
"""


def parse_period(raw: str | None) -> tuple[str, datetime, datetime]:
    """(``YYYY-MM``, its first instant, the next month's); 422 when malformed."""
    if raw is None or raw == "":
        now = datetime.now(timezone.utc)
        year, month = now.year, now.month
    else:
        match = PERIOD.fullmatch(raw)
        if match is None:
            raise errors.Unprocessable("periodo must be YYYY-MM (a month).", details={"periodo": "must be YYYY-MM"})
        year, month = int(match.group(1)), int(match.group(2))
    start = datetime(year, month, 1, tzinfo=timezone.utc)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=timezone.utc)
    return f"{year:04d}-{month:02d}", start, end


async def local_counts(conn: BaseDBAsyncClient, tenant: str, start: datetime, end: datetime) -> dict[str, int]:
    rows = await conn.execute_query_dict(_LOCAL, [tenant, start, end])
    return {key: int(value) for key, value in rows[0].items()}


async def core_usage(platform: ServiceClient, tenant: str, period: str) -> tuple[bool, dict[str, Any] | None]:
    """(the platform answered, its answer); an account it does not know answers None."""
    try:
        answer = await platform.get(f"/internal/v1/tenants/{tenant}/usage", params={"period": period})
    except errors.HttpError as exc:  # down, timing out, 5xx, breaker open: the local counts still answer
        log.info("usage: the platform did not answer for %s (%s)", tenant, exc.code)
        return False, None
    if answer.status == 404:
        return True, None
    if not answer.ok or not isinstance(answer.body, dict):
        log.warning("usage: the platform answered %s for %s", answer.status, tenant)
        return False, None
    return True, answer.body
