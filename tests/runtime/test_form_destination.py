"""Where a form's submissions go, the whole way with real processes (issue 47): the runtime's outbox
and relay, its worker, the CRM and the platform.

- ``CrmList``: the contact joins the account's list; a list gone since the form was saved loses
  nothing (the contact is made, the failure kept on the submission and on the CRM's event);
- ``NotifyEmail``: one e-mail per submission through the platform's pipeline, at most
  ``DAILY_LIMIT`` a day per form (past it, nothing sent and the skip counted on the row), and none
  once the address is no longer a member's."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timezone

import pytest

from models.runtime.lead import Submission, new_submission_id, seal
from tasks.runtime.notices import DAILY_LIMIT
from tests.fixtures.harness import Process
from tests.fixtures.platform import account_person
from tests.pages.conftest import make_list

FIELDS = [{"Name": "email", "Label": "E-mail", "Type": "email", "Required": True},
          {"Name": "name", "Label": "Name", "Type": "text"}]


@pytest.fixture(scope="module")
async def notice_pipeline(services, site_runtime, servers, tmp_path_factory):
    """The runtime's relay and a worker on queue ``runtime`` holding the system mail key (a test
    key of an account of its own, as `herald up`'s worker holds one)."""
    from app.platform.api_key.service import create_key
    from app.platform.tenant.service import create_tenant
    from kit.ids import public_id
    from models.platform.api_key import KeyKind

    servers("crm")
    mailer = await create_tenant("Herald mail (form notices)", public_id("herald-notices", 4).replace("_", "-"))
    _, mail_key = await create_key(mailer.public_id, "system mail", ["email:send"], KeyKind.TEST)
    env = {**services.env, "RELAY_SYSTEMS": "runtime", "IDENTITY_MAIL_KEY": mail_key,
           "IDENTITY_MAIL_FROM": "forms@sandbox.herald.test"}
    log_dir = tmp_path_factory.mktemp("form-destination")
    roles = [Process("worker", ["worker", "--queues", "runtime"], env, log_dir),
             Process("scheduler", ["scheduler"], env, log_dir)]
    yield
    for role in roles:
        role.stop()


async def form_with(pages, site, destination: dict) -> dict:
    made = await pages.post("/v1/formularios", headers=site.headers,
                            json={"Name": "Contact us", "Fields": FIELDS, "Destination": destination})
    assert made.status_code == 201, made.text
    return made.json()["Formulario"]


async def submit(web, site, form: dict, email: str) -> Submission:
    sent = await web.post(f"/v1/forms/{form['Id']}/submissions", headers={"Authorization": f"Bearer {site.key}"},
                          json={"Fields": {"email": email, "name": "Ana"}})
    assert sent.status_code == 201, sent.text
    return await Submission.get(public_id=sent.json()["Submission"]["Id"])


def noticed(row: Submission) -> bool:
    return row.notice not in (None, "sending")  # decided: sent, or why not


async def settled(row: Submission, done, seconds: float = 60) -> Submission:
    deadline = time.monotonic() + seconds
    while True:
        await row.refresh_from_db()
        if done(row):
            return row
        assert time.monotonic() < deadline, (row.attempts, row.last_error, row.notice)
        await asyncio.sleep(0.3)


async def test_a_submission_joins_the_forms_crm_list_and_a_missing_list_loses_nothing(
        pages, web, site, servers, notice_pipeline):
    from models.crm import Contact, ContactEvent, ContactList, ListMember
    from tests.fixtures.identity import service_headers

    await make_list(servers("crm").url, service_headers(), site.tenant, "newsletter")
    form = await form_with(pages, site, {"CrmList": "newsletter"})

    row = await settled(await submit(web, site, form, "lia@example.com"), lambda row: row.forwarded_at is not None)
    assert row.last_error is None
    contact = await Contact.get(public_id=row.contact_id)
    the_list = await ContactList.get(tenant=site.tenant, slug="newsletter")
    assert await ListMember.filter(list_id=the_list.id, contact_id=contact.id).count() == 1
    [event] = await ContactEvent.filter(contact_id=contact.id, dedupe_key=f"form:{row.public_id}")
    assert event.properties["list_id"] == the_list.public_id

    # The list is deleted after the form was saved: the lead still becomes a contact, and the
    # failure is kept where the account and the operator see it.
    await the_list.delete()
    row = await settled(await submit(web, site, form, "max@example.com"), lambda row: row.forwarded_at is not None)
    assert row.contact_id and "no list 'newsletter'" in (row.last_error or "")
    contact = await Contact.get(public_id=row.contact_id)
    [event] = await ContactEvent.filter(contact_id=contact.id, dedupe_key=f"form:{row.public_id}")
    assert event.properties["list_missing"] == "newsletter" and "list_id" not in event.properties


async def test_notify_email_gets_one_notice_per_submission_within_the_daily_limit(
        pages, web, site, identity, notice_pipeline):
    from models.platform.member import Membership
    from models.platform.message import Message

    person = await account_person(identity, site.tenant, "form-notice")
    form = await form_with(pages, site, {"NotifyEmail": person.email})

    row = await settled(await submit(web, site, form, "noa@example.com"), noticed)
    assert row.notice == "sent"
    [notice] = await Message.filter(recipient=person.email, idempotency_key__contains=row.public_id)
    assert notice.subject == "New submission: Contact us" and notice.tags["kind"] == "form-notice"
    assert "noa@example.com" in str(notice.content)

    # The form has used up today's notices: the next submission is stored and forwarded, its
    # notice skipped and counted.
    now = datetime.now(timezone.utc)
    await Submission.bulk_create([
        Submission(public_id=new_submission_id(), tenant=site.tenant, source="form", form_id=form["Id"],
                   data=seal({"email": None}), occurred_at=now, notice="sent", noticed_at=now)
        for _ in range(DAILY_LIMIT - 1)])
    row = await settled(await submit(web, site, form, "ivo@example.com"), noticed)
    assert row.notice == "limited"
    await settled(row, lambda row: row.forwarded_at is not None)
    assert await Message.filter(recipient=person.email).count() == 1
    assert await Submission.filter(form_id=form["Id"], notice="limited").count() == 1

    # An address that is no longer a member's gets nothing, whatever the limit.
    await Membership.filter(user_id=person.id).delete()
    row = await settled(await submit(web, site, form, "eli@example.com"), noticed)
    assert row.notice == "not_member"
    assert await Message.filter(recipient=person.email).count() == 1
