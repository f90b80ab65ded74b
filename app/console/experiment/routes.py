"""An account's A/B experiments: its pages with the state of each one's test, and one page's test:
the variants (built with a form whose weights must add up to 100), starting it, the results per
variant with their raw counts (and whether a leader can honestly be called), the auto-stop rule and
promoting the winner. The pages system's ``/v1/paginas/{id}/variantes``, ``/experimento``,
``/ab/promover``, ``/experimento/auto-stop``; the runtime's ``/v1/analytics/ab``."""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request
from sanic.response import redirect

from app.console import gate, upstream
from app.console.experiment import calls, form, stats
from app.console.templating import render

bp = Blueprint("console_experiment")

STATES = {None: "No test", "rascunho": "Draft", "rodando": "Running", "concluido": "Ended"}
NOTICES = {"saved": "Variants saved.", "started": "The test is running: visitors now see one variant each.",
           "promoted": "The winner is published and the test has ended.", "auto-stop": "Auto-stop saved."}
CONFIDENCES = (("0.9", "90 %"), ("0.95", "95 %"), ("0.99", "99 %"))


@bp.get("/a/<account_id:id>/experiments", ctx_query=("cursor",))
async def experiments(request: Request, account_id: str) -> HTTPResponse:
    await gate.require_account(request, account_id)
    listed = await calls.page_list(request, account_id, request.args.get("cursor"))
    return render(request, "experiment/experiments.html", title="Experiments", listed=listed, states=STATES,
                  cursor=request.args.get("cursor"))


def _address(page: dict) -> str:
    if not page.get("Domain"):
        return ""
    return f"{page['Domain']}/" + ("" if page["Slug"] == "index" else page["Slug"])


async def _page(request: Request, account: dict, page_id: str, *, status: int = 200, rows: list[dict] | None = None,
                errors: dict | None = None, notice: str | None = None, chosen: str = "",
                rule: dict | None = None) -> HTTPResponse:
    account_id = account["Id"]
    page, experiment = await calls.page_and_experiment(request, account_id, page_id)
    state = experiment.get("Status")
    pixel = await calls.pixel_counts(request, account_id, page, experiment) if state in ("rodando", "concluido") \
        else None
    found = stats.verdict(stats.rows_of(experiment, pixel))
    saved = experiment.get("Variantes") or [] if state == "rascunho" else []
    expanded = rows is not None  # rows posted back (a refusal, a row added): the folded form stays open
    if rows is None:
        rows = form.starting_rows(len(saved))
    winner = next((item for item in experiment.get("Variantes") or [] if item["Id"] == experiment.get("WinnerId")),
                  None)
    shown_rule = rule or {"Enabled": False, "MinViewsPerVariant": 1000, "Confidence": 0.95, **(experiment.get("AutoStop")
                                                                                             or {})}
    return render(request, "experiment/experiment.html", status, fragment="experiment/_results.html",
                  title=f"Experiment: {page['Title']}", subject=page, address=_address(page), experiment=experiment,
                  state=state, states=STATES, verdict=found, expanded=expanded, pixel=pixel, saved=saved, rows=rows,
                  errors=errors or {}, notice=notice, chosen=chosen or (found.leader.id if found.leader else ""),
                  winner=winner, rule=shown_rule, confidences=CONFIDENCES, admin=gate.is_admin(account),
                  headline_of=form.headline_of, min_views=stats.MIN_VIEWS, max_variants=form.MAX_VARIANTS)


@bp.get("/a/<account_id:id>/experiments/<page_id:id>", ctx_query=("done",))
async def experiment(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    return await _page(request, account, page_id, notice=NOTICES.get(request.args.get("done") or ""))


def _refused(answer: upstream.Answer, what: str) -> dict[str, str]:
    if answer.status == 403:
        return {"_": f"Only owners and admins {what}."}
    return {"_": answer.message or f"Herald could not {what}. Try again."}


def _done(account_id: str, page_id: str, what: str) -> HTTPResponse:
    return redirect(f"/a/{account_id}/experiments/{page_id}?done={what}", status=303)


@bp.post("/a/<account_id:id>/experiments/<page_id:id>/variants")
async def add_variants(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    """Checks every row (names, weights 0 to 100 adding up to 100 with those already saved), then
    adds them one by one; a refusal midway shows what was saved and the reason."""
    account = await gate.require_account(request, account_id)
    page, experiment = await calls.page_and_experiment(request, account_id, page_id)
    rows = form.rows_of_form(request.form or {})
    if (request.form or {}).get("action") == "add":
        if len(rows) + len(experiment.get("Variantes") or []) < form.MAX_VARIANTS:
            rows.append(form.blank())
        return await _page(request, account, page_id, rows=rows)
    saved = experiment.get("Variantes") or [] if experiment.get("Status") == "rascunho" else []
    errors = form.check(rows, saved)
    if errors:
        return await _page(request, account, page_id, status=400, rows=rows, errors=errors)
    for index, row in enumerate(rows):
        body = {"Name": row["name"], "Weight": int(row["weight"])}
        blocks = form.blocks_for(page.get("Blocks") or [], row["headline"])
        if blocks is not None:
            body["Blocks"] = blocks
        answer = await calls.pages(request, account_id, "POST", f"/v1/paginas/{page_id}/variantes", json=body)
        if not answer.ok:
            return await _page(request, account, page_id, status=answer.status, rows=rows[index:],
                               errors=_refused(answer, "add variants"))
    return _done(account_id, page_id, "saved")


@bp.post("/a/<account_id:id>/experiments/<page_id:id>/start")
async def start(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    answer = await calls.pages(request, account_id, "POST", f"/v1/paginas/{page_id}/ab/promover")
    if not answer.ok:
        return await _page(request, account, page_id, status=answer.status, errors=_refused(answer, "start tests"))
    return _done(account_id, page_id, "started")


@bp.post("/a/<account_id:id>/experiments/<page_id:id>/promote")
async def promote(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    chosen = ((request.form or {}).get("variant") or "").strip()
    if not chosen:
        return await _page(request, account, page_id, status=400,
                           errors={"variant-choice": "Choose the variant to publish as the page"})
    answer = await calls.pages(request, account_id, "POST", f"/v1/paginas/{page_id}/ab/promover",
                               json={"VariantId": chosen}, not_found=False)
    if not answer.ok:
        return await _page(request, account, page_id, status=answer.status, chosen=chosen,
                           errors=_refused(answer, "promote variants"))
    return _done(account_id, page_id, "promoted")


@bp.post("/a/<account_id:id>/experiments/<page_id:id>/auto-stop")
async def auto_stop(request: Request, account_id: str, page_id: str) -> HTTPResponse:
    account = await gate.require_account(request, account_id)
    posted = request.form or {}
    views = (posted.get("min_views") or "").strip().replace(",", "")
    confidence = posted.get("confidence") or "0.95"
    rule = {"Enabled": posted.get("enabled") == "on", "MinViewsPerVariant": views,
            "Confidence": float(confidence) if confidence in dict(CONFIDENCES) else 0.95}
    errors = {}
    if not views.isdigit() or not 100 <= int(views) <= 10_000_000:
        errors["min_views"] = "Views per variant must be a whole number from 100 to 10,000,000"
    if errors:
        return await _page(request, account, page_id, status=400, errors=errors, rule=rule)
    rule["MinViewsPerVariant"] = int(views)
    answer = await calls.pages(request, account_id, "PUT", f"/v1/paginas/{page_id}/experimento/auto-stop", json=rule)
    if not answer.ok:
        return await _page(request, account, page_id, status=answer.status, rule=rule,
                           errors=_refused(answer, "set auto-stop"))
    return _done(account_id, page_id, "auto-stop")
