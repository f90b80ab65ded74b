"""The CRM's retention reaching the runtime (service credential; docs/runtime.md, "Retention"):

    POST /internal/v1/tenants/{tenant}/retention/erasures    {contacts: [{id, email, phone}] (0..1000),
                                                              older_than_days: n | null} (not both empty)
                                                             -> 200 {submissions, leads}: how many were
                                                             anonymized now (a repeat: 0)

Called by the CRM's ``crm_erasure.run`` (tasks/crm/erasure.py) for each batch of contacts its
retention anonymized (and once per run with none, for the submissions that aged past the
policy). Which submissions are erased: app/runtime/retention/service.py. The service credential
is checked by the runtime's gate (app/runtime/gate/__init__.py) before the handler runs.
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import answers, described, reply_of
from app.http.responses import reply
from app.http.tenant_access import TENANT_ID
from app.runtime.db import transaction
from app.runtime.retention import service
from app.runtime.retention.schemas import MAX_BODY_BYTES, ErasureIn

bp = Blueprint("runtime_internal_retention", url_prefix="/internal/v1/tenants/<tenant:slug>")

ERASED = reply_of(submissions=described({"type": "integer"}, "Form submissions anonymized now (a repeat: 0)."),
                  leads=described({"type": "integer"}, "Leads anonymized now (a repeat: 0)."))


@bp.post("/retention/erasures", ctx_auth="service", ctx_body=ErasureIn, ctx_errors=(400, 404, 413),
         ctx_responses=answers({200: ERASED}))
async def erase_contacts(request: Request, tenant: str) -> HTTPResponse:
    """Anonymize the form submissions and leads of erased contacts, and those past the retention policy.

    Anonymize the account's form submissions and leads tied to these (anonymized) contacts or
    older than the account's policy."""
    if not TENANT_ID.fullmatch(tenant):
        raise errors.NotFound("Account not found.")
    body = parse_body(request, ErasureIn, max_bytes=MAX_BODY_BYTES)
    async with transaction() as conn:
        erased = await service.erase(conn, tenant, body.contacts, body.older_than_days)
    return reply(request, {"submissions": erased.submissions, "leads": erased.leads})
