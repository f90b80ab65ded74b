"""A form's ``Destination``, checked at save against the systems that own what it names.

- ``CrmList``: the slug of one of the account's CRM lists (the CRM's internal list route). A list
  the account does not have (another account's is the same: lists are found within the account)
  is refused with 422 naming ``Destination.CrmList``. The CRM not answering does not block the
  save: the list is checked again when each submission reaches the CRM, and a submission whose
  list is gone by then still becomes a contact, with the failure recorded (app/crm/lead/service.py).
- ``NotifyEmail``: a verified address (primary or recovery) of someone who reaches the account
  (the platform's internal member-address route, which asks the identity server). Any other
  address is refused with 422: an account's form must not mail strangers. Unlike the list, this is
  never taken unchecked: the platform or identity server not answering is a 503 (try again).

Checked on create, and on a PATCH that sends ``Destination`` (one without it asks nobody).
"""

from __future__ import annotations

import logging

from app.http import errors
from app.http.services import Services

log = logging.getLogger("herald.pages.forms")


async def check(clients: Services, tenant: str, destination: dict) -> None:
    """422 for a ``CrmList`` the account does not have or a ``NotifyEmail`` that is not a verified
    address of one of its members; 503 when the address cannot be checked now."""
    problems: dict[str, str] = {}
    slug = destination.get("CrmList")
    if slug and not await _list_exists(clients, tenant, slug):
        problems["Destination.CrmList"] = f"the account has no CRM list with the slug {slug!r}"
    address = destination.get("NotifyEmail")
    if address and not await _member_address(clients, tenant, address):
        problems["Destination.NotifyEmail"] = ("must be a verified e-mail address of a member of the account "
                                               "(verify it in the account settings first)")
    if problems:
        first = next(iter(problems))
        raise errors.Unprocessable(f"Field {first!r}: {problems[first]}.", details=problems)


async def _list_exists(clients: Services, tenant: str, slug: str) -> bool:
    """True when the account has the list, or when the CRM cannot say now (checked again later)."""
    try:
        answer = await clients.client("crm").get(f"/internal/v1/tenants/{tenant}/listas", params={"slug": slug})
    except errors.HttpError as failure:
        log.warning("form of %s: CRM list %r not checked at save (%s); it is checked at each submission",
                    tenant, slug, failure.status)
        return True
    if answer.status == 404:  # an account the CRM has never seen has no lists
        return False
    if not answer.ok or not isinstance(answer.body, dict):
        log.warning("form of %s: CRM list %r not checked at save (HTTP %s)", tenant, slug, answer.status)
        return True
    return bool(answer.body.get("listas"))


async def _member_address(clients: Services, tenant: str, address: str) -> bool:
    answer = await clients.client("platform").get(f"/internal/v1/tenants/{tenant}/member-addresses",
                                                  params={"email": address}, outage=errors.ServiceUnavailable)
    if answer.status == 404:  # the platform knows no such account: it has no members
        return False
    if not answer.ok or not isinstance(answer.body, dict) or not isinstance(answer.body.get("Member"), bool):
        log.error("platform answered the member-address check with HTTP %s", answer.status)
        raise errors.ServiceUnavailable(retry_after=5)
    return answer.body["Member"]
