"""Builds the console from the shared factory: health and meta, the static files, every noun's
pages; the console's own guard (every write same-origin with its CSRF token; the headers of every
answer) and its error pages (HTML, not the API envelope: a person reads them), 500 included."""

from __future__ import annotations

from sanic import HTTPResponse, Request, Sanic
from sanic.exceptions import MethodNotAllowed, NotFound, SanicException
from sanic.handlers import ErrorHandler
from sanic.response import redirect

from app.console import gate, guard, templating, upstream
from app.console.account import routes as account
from app.console.alert import routes as alert
from app.console.analytics import live as analytics_live
from app.console.analytics import routes as analytics
from app.console.api_key import routes as api_key
from app.console.brand import generate as page_generate
from app.console.brand import routes as brand
from app.console.compose import routes as compose
from app.console.contact import edit as contact_edit
from app.console.contact import routes as contact
from app.console.contact_import import routes as contact_import
from app.console.contact_list import members as contact_list_members
from app.console.contact_list import routes as contact_list
from app.console.destination import routes as destination
from app.console.domain import routes as domain
from app.console.experiment import routes as experiment
from app.console.form import routes as site_form
from app.console.heatmap import routes as heatmap
from app.console.integration import routes as integration
from app.console.invitation import mine as my_invitations
from app.console.invitation import routes as invitation
from app.console.journey import routes as journey
from app.console.journey import step_routes as journey_step
from app.console.media import routes as media
from app.console.message import routes as message
from app.console.overview import routes as overview
from app.console.page import editor as page_editor
from app.console.page import routes as page
from app.console.passkey import routes as passkey
from app.console.password import routes as password
from app.console.profile import reauth, security
from app.console.profile import routes as profile
from app.console.provider import routes as provider
from app.console.push import routes as push
from app.console.redirect import routes as site_redirect
from app.console.replay import routes as replay
from app.console.request_log import routes as request_log
from app.console.segment import routes as segment
from app.console.signin import routes as signin
from app.console.signup import routes as signup
from app.console.site_domain import routes as site_domain
from app.console.staff import alerts as staff_alerts
from app.console.staff import blocklist as staff_blocklist
from app.console.staff import metrics as staff_metrics
from app.console.staff import routes as staff
from app.console.support import routes as support
from app.console.team import requests as access_requests
from app.console.team import routes as team
from app.console.template import routes as template
from app.console.verification import routes as verification
from app.console.webhook import routes as webhook
from app.http import errors, health, services
from app.http.envelope import handle_exception
from app.http.factory import build_app
from kit.systems import CONSOLE

META = ("/healthz", "/readyz", "/version", "/metrics", "/openapi.json", "/docs")
# Every screen's blueprint, by area (the account nav's order).
PAGES = (
    # signing in and the person
    signin.bp, signup.bp, verification.bp, password.bp, invitation.bp, my_invitations.bp, profile.bp, reauth.bp,
    security.bp, passkey.bp,
    # the account and its messages
    account.bp, overview.bp, message.bp, compose.bp, template.bp, api_key.bp, domain.bp, provider.bp, push.bp,
    webhook.bp, request_log.bp, team.bp, access_requests.bp, support.bp,
    # contacts (the CRM)
    contact.bp, contact_edit.bp, contact_list.bp, contact_list_members.bp, contact_import.bp, segment.bp,
    # automation (the CRM)
    journey.bp, journey_step.bp, alert.bp, destination.bp, integration.bp,
    # pages (the pages system)
    page.bp, page_editor.bp, page_generate.bp, experiment.bp, site_form.bp, site_redirect.bp, media.bp, brand.bp,
    site_domain.bp,
    # analytics (the runtime)
    analytics.bp, analytics_live.bp, heatmap.bp, replay.bp,
    # platform staff
    staff.bp, staff_blocklist.bp, staff_alerts.bp, staff_metrics.bp,
)


def _page(request: Request, status: int, heading: str, explanation: str, link=None, headers=None) -> HTTPResponse:
    return templating.render(request, "error.html", status, title=heading, heading=heading,
                             explanation=explanation, link=link, headers=headers)


async def error_page(request: Request, exception: Exception) -> HTTPResponse:
    if request.path in META or request.path.startswith("/static/"):
        return await handle_exception(request, exception)
    if isinstance(exception, gate.SignInNeeded):
        target = "/sign-in" + ("?ended=1" if exception.ended else "")
        if request.method == "GET" and request.path != "/":
            target += ("&" if exception.ended else "?") + "next=" + request.path
        if templating.is_htmx(request):
            return HTTPResponse(status=204, headers={"HX-Redirect": target})
        return redirect(target, status=303)
    if isinstance(exception, guard.Refused):
        return _page(request, 403, "This form has expired",
                     "The form was sent from another site, or it is too old. Go back, reload the page and send it again.")
    if isinstance(exception, gate.ReadOnly):
        return _page(request, 403, "This is a read-only support session",
                     "Nothing can be changed while you are in a support session. End the session first (the "
                     "button in the banner), then make the change from your own account.")
    if isinstance(exception, upstream.Unavailable):
        return _page(request, 503, "Herald is unavailable",
                     "The part of Herald this page needs is not answering. Try again in a minute.",
                     headers={"Retry-After": exception.retry_after or "30"})
    if isinstance(exception, (gate.PageNotFound, NotFound)):
        return _page(request, 404, "Page not found",
                     "If you typed the address, check it is correct. If you followed a link, the item may have been "
                     "removed, or it belongs to an account you are not a member of.", link=("/", "Go to your accounts"))
    if isinstance(exception, MethodNotAllowed):
        return _page(request, 405, "Page not found", "This page does not take that request.")
    # Anything else: the factory's handler logs and reports it as for every system (its JSON
    # envelope is dropped), and the person reads a page with the same status.
    answered = await handle_exception(request, exception)
    if 400 <= answered.status < 500:
        explanation = exception.message if isinstance(exception, errors.HttpError) else \
            "Check what you sent (a form too large, or something the page does not take) and try again."
        return _page(request, answered.status, "Herald cannot take this request", explanation,
                     link=("/", "Go to Herald"))
    return _page(request, max(answered.status, 500), "Something went wrong",
                 "Herald could not show this page. Try again in a minute; if it keeps happening, tell your "
                 "Herald operator the time it happened.", link=("/", "Go to Herald"))


async def home(request: Request) -> HTTPResponse | None:
    """``GET /``: a person signed in goes to an account (staff without one to the staff area), anyone
    else to sign in."""
    person = await gate.require_person(request)
    if person.accounts:
        return redirect(f"/a/{person.accounts[0]['Id']}", status=303)
    return redirect("/staff/accounts" if person.staff else "/accounts", status=303)


def build() -> Sanic:
    # No database: ready once booted with its Redis (the platform's state is each page's own concern).
    readiness = health.Readiness("strict", {"redis": health.probe_redis})
    static = templating.static_blueprint()
    # 64 KiB a form, but a contacts CSV uploaded for import (its route's ctx_max_body).
    app = build_app(CONSOLE, [static, *PAGES], readiness=readiness, home=home,
                    max_body_bytes=64 * 1024, largest_body_bytes=contact_import.MAX_UPLOAD_BYTES)
    # The pages and their files are HTML for people's browsers (docs/console.md), not an API: the
    # console's OpenAPI document describes what machines call, its meta routes (app/http/openapi.py
    # leaves out a route whose ctx says openapi=False).
    pages = {bp.name for bp in (static, *PAGES)}
    for route in app.router.routes:
        if route.name.split(".")[1] in pages:
            route.ctx.openapi = False
    app.on_request(guard.check_write, priority=60)
    app.on_response(guard.secure_headers, priority=90)
    # HTML error pages for the console's own failures, Sanic's (404, 405) and anything unexpected
    # (500); the meta routes and static files keep the factory's JSON envelope.
    # The console's pages answer every exception: a fresh Sanic ErrorHandler of this app's own (the
    # factory's catch-all JSON handler is replaced, not stacked: Sanic refuses a second handler for
    # Exception), with error_page for each; error_page hands the meta routes back to the factory's
    # handler, and lets it log and report what was unexpected.
    app.error_handler = ErrorHandler()
    for exception in (gate.SignInNeeded, gate.PageNotFound, gate.ReadOnly, guard.Refused, upstream.Unavailable, SanicException,
                      Exception):
        app.error_handler.add(exception, error_page)
    services.install(app)
    return app
