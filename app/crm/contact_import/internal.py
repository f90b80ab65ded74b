"""The import's worker side, with the service credential: the ``crm_contact_imports.run`` actor
(tasks/crm/contact_imports.py) asks for one part at a time, since a worker imports no HTTP system
and the part's write must be the bulk route's own upsert, in one transaction with the progress.

    POST /internal/v1/tenants/{tenant}/importacoes/{id}/parte    write the next part (up to 5,000 rows)
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.contact_import import service
from app.crm.contact_import.views import PART, import_view
from app.crm.gate import tenant_of_path
from app.http.openapi import answers
from app.http.responses import reply

bp = Blueprint("crm_internal_contact_imports", url_prefix="/internal/v1/tenants/<tenant:slug>")


@bp.post("/importacoes/<import_id:id>/parte", ctx_auth="service", ctx_errors=(409,),
         ctx_responses=answers({200: PART}))
async def write_part(request: Request, tenant: str, import_id: str) -> HTTPResponse:
    """Write the next part of a started import.

    The part and the import's progress are written in one transaction; ``terminou`` once every valid
    row is written (or the import is not running). Called by the import's worker."""
    async with db.transaction() as conn:
        row, ended = await service.write_part(conn, tenant_of_path(tenant), import_id)
    return reply(request, {"importacao": import_view(row), "terminou": ended})
