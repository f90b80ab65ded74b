"""Contact imports of an account (docs/crm.md, "Imports").

    POST /v1/importacoes                  take a CSV (multipart field ``arquivo``), check every row: 201   editor
    GET  /v1/importacoes                  imports, newest first (paging)                                  leitor
    GET  /v1/importacoes/{id}             one import: progress, counts, per-row errors, the preview       leitor
    POST /v1/importacoes/{id}/iniciar     {inscrito}: start it (or resume a failed one): 202               editor
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.crm import db
from app.crm.contact_import import service
from app.crm.contact_import.csvfile import MAX_FILE_BYTES
from app.crm.contact_import.schemas import MAX_BODY_BYTES, ImportStart
from app.crm.contact_import.views import IMPORT, IMPORTS, import_view
from app.crm.gate import access_of
from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import BINARY, answers, described, fields
from app.http.paging import KeysetPage
from app.http.responses import reply
from app.http.wakeup import poke
from models.crm import ImportState

bp = Blueprint("crm_v1_contact_imports", url_prefix="/v1")

ACCESS_ERRORS = (400, 403, 404, 502, 503)
# The multipart envelope around the file.
MAX_UPLOAD_BYTES = MAX_FILE_BYTES + 64 * 1024


_FILE = described(BINARY, "The CSV file: UTF-8, a header row, up to 8 MiB and 50,000 rows.")


@bp.post("/importacoes", ctx_auth="session", ctx_role="editor", ctx_multipart=fields(arquivo=_FILE),
         ctx_multipart_required=("arquivo",), ctx_max_body=MAX_UPLOAD_BYTES,
         ctx_errors=ACCESS_ERRORS + (413, 422), ctx_responses=answers({201: IMPORT}))
async def create_import(request: Request) -> HTTPResponse:
    """Upload a CSV of contacts to import.

    The file goes in the multipart field ``arquivo`` (UTF-8, up to 8 MiB and 50,000 rows, an
    ``email``, ``telefone`` or ``id_externo`` column). Every row is checked and the answer gives the
    counts, the per-row errors and a sample; nothing is written until the import is started with the
    consent answer. 413 for a file too large, 422 for a file that cannot be read as such a CSV."""
    upload = request.files.get("arquivo") if request.files else None
    if upload is None:
        raise errors.ValidationError("Send the CSV as multipart/form-data in the field 'arquivo'.",
                                     details={"arquivo": "required"})
    access = access_of(request)
    async with db.transaction() as conn:
        row = await service.create(conn, access.tenant_id, access.user_id, bytes(upload.body), upload.name)
    return reply(request, {"importacao": import_view(row, service.sample(row))}, status=201)


@bp.get("/importacoes", ctx_auth="session", ctx_role="leitor", ctx_query=("cursor", "limit"),
        ctx_errors=ACCESS_ERRORS, ctx_responses=answers({200: IMPORTS}))
async def list_imports(request: Request) -> HTTPResponse:
    """The account's imports, newest first."""
    found = await service.list_imports(db.connection(), access_of(request).tenant_id,
                                       KeysetPage.of(request, default_limit=20, max_limit=100))
    return reply(request, {"importacoes": [import_view(row) for row in found.items],
                           "proximo_cursor": found.next_cursor, "tem_mais": found.has_more})


@bp.get("/importacoes/<import_id:id>", ctx_auth="session", ctx_role="leitor", ctx_errors=ACCESS_ERRORS,
        ctx_responses=answers({200: IMPORT}))
async def get_import(request: Request, import_id: str) -> HTTPResponse:
    """Read one import.

    Its state, exact counts, per-row errors (the first 1,000) and, before it starts, a sample of the
    rows it will write. A foreign or unknown id is 404."""
    row = await service.contact_import(db.connection(), access_of(request).tenant_id, import_id)
    sample = service.sample(row) if row.state == ImportState.ANALYZED else None
    return reply(request, {"importacao": import_view(row, sample)})


@bp.post("/importacoes/<import_id:id>/iniciar", ctx_auth="session", ctx_role="editor", ctx_body=ImportStart,
         ctx_errors=ACCESS_ERRORS + (409, 422), ctx_responses=answers({202: IMPORT}))
async def start_import(request: Request, import_id: str) -> HTTPResponse:
    """Start or resume an import.

    The consent answer (``inscrito``) is required: there is no default, so an import never subscribes
    everyone silently. Its rows are written in parts of up to 5,000 by a worker; a failed import
    resumes after the rows already written."""
    body = parse_body(request, ImportStart, max_bytes=MAX_BODY_BYTES)
    async with db.transaction() as conn:
        row = await service.start(conn, access_of(request).tenant_id, import_id, body.inscrito)
    poke(request)
    return reply(request, {"importacao": import_view(row)}, status=202)
