"""Importing contacts from a CSV file: the upload, the preview (rows that will be written and rows
refused, each by its line), the consent question asked with no answer chosen (the CRM's
``inscrito`` defaults to true, so an import must never subscribe everyone by omission), then a
progress bar that follows the CRM's job (htmx, every second, for 30 minutes at most) and the exact
counts at the end. ``POST/GET /v1/importacoes``, ``GET /v1/importacoes/{id}``,
``POST /v1/importacoes/{id}/iniciar`` on the CRM."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.contact import crm
from app.console.templating import render
from app.http.query import int_param

bp = Blueprint("console_contact_import")
MAX_FILE_BYTES = 8 * 1024 * 1024  # the CRM's own bound (app/crm/contact_import/csvfile.py)
MAX_UPLOAD_BYTES = MAX_FILE_BYTES + 64 * 1024
POLL_SECONDS = 1
MAX_POLLS = 1800
RUNNING = ("na_fila", "processando")
# The CRM reads and checks the whole file before it answers: 50,000 rows take seconds, not the
# client's default 5.
UPLOAD_SECONDS = 60


async def _upload_page(request: Request, account: dict, status: int = 200, **context) -> HTTPResponse:
    listed = await crm.read(request, account["Id"], "/v1/importacoes", params={"limit": "10"})
    return render(request, "contact_import/upload.html", status, title="Import contacts",
                  imports=listed.get("importacoes", []) if listed is not None and listed.ok else None,
                  admin=crm.can_edit(account), max_mb=MAX_FILE_BYTES // (1024 * 1024), **context)


@bp.get("/a/<account_id:id>/contacts/import")
async def upload_form(request: Request, account_id: str) -> HTTPResponse:
    return await _upload_page(request, await gate.require_account(request, account_id))


@bp.post("/a/<account_id:id>/contacts/import", ctx_max_body=MAX_UPLOAD_BYTES)
async def upload(request: Request, account_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    sent = request.files.get("file") if request.files else None
    if sent is None or not sent.body:
        return await _upload_page(request, account, 400, errors={"file": "Select a CSV file"})
    answer = await crm.call(request, account_id, "POST", "/v1/importacoes",
                            files={"arquivo": (sent.name or "contacts.csv", bytes(sent.body), "text/csv")},
                            timeout=UPLOAD_SECONDS)
    if answer.status == 403:
        return await _upload_page(request, account, 403, errors={"_": "Only owners and admins import contacts."})
    if answer.status == 413:
        return await _upload_page(request, account, 413,
                                  errors={"file": f"The file must be {MAX_FILE_BYTES // (1024 * 1024)} MB or smaller"})
    if not answer.ok:
        return await _upload_page(request, account, answer.status,
                                  errors={"file": answer.message or "Herald could not read the file"})
    return redirect(f"/a/{account_id}/contacts/imports/{answer.get('importacao')['id']}", status=303)


async def _job_page(request: Request, account: dict, import_id: str, status: int = 200, **context) -> HTTPResponse:
    found = await crm.call(request, account["Id"], "GET", f"/v1/importacoes/{import_id}")
    if not found.ok:
        raise upstream.Unavailable()
    job = found.get("importacao")
    poll = int_param(request, "poll", default=0, low=0, high=MAX_POLLS) or 0
    following = job["estado"] in RUNNING and poll < MAX_POLLS
    context.setdefault("values", {})
    return render(request, "contact_import/job.html", status, fragment="contact_import/_progress.html",
                  title="Import " + (job.get("arquivo") or job["id"]), job=job, poll=poll, following=following,
                  stopped=job["estado"] in RUNNING and not following, poll_seconds=POLL_SECONDS,
                  admin=crm.can_edit(account), **context)


@bp.get("/a/<account_id:id>/contacts/imports/<import_id:id>", ctx_query=("poll",))
async def job(request: Request, account_id: str, import_id: str) -> HTTPResponse:
    return await _job_page(request, await gate.require_account(request, account_id), import_id)


@bp.post("/a/<account_id:id>/contacts/imports/<import_id:id>/start")
async def start(request: Request, account_id: str, import_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    consent = (request.form or {}).get("consent")
    if consent not in ("yes", "no"):
        return await _job_page(request, account, import_id, 400, errors={
            "consent-yes": "Select whether the people in this file agreed to receive your messages"})
    answer = await crm.call(request, account_id, "POST", f"/v1/importacoes/{import_id}/iniciar",
                            json={"inscrito": consent == "yes"})
    if answer.status == 403:
        return await _job_page(request, account, import_id, 403,
                               errors={"_": "Only owners and admins import contacts."}, values={"consent": consent})
    if not answer.ok:
        return await _job_page(request, account, import_id, answer.status, values={"consent": consent},
                               errors={"_": answer.message or "Herald could not start the import. Try again."})
    return redirect(f"/a/{account_id}/contacts/imports/{import_id}", status=303)
