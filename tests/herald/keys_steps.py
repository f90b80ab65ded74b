"""The steps of tests/herald/test_keys.py that run inside a process with a SECRET_KEY of their own:
``python -m tests.herald.keys_steps STEP [ARG ...]`` against a Stack's databases, through the same
services the API and the CLI call; each prints one JSON object (herald/admin.py run_operation).

    seal                  under the process's key: a tenant, a provider configuration, a sender domain,
                          a CRM contact and a user's recovery codes
    recover USER CODE     whether the user's recovery code is accepted
    lookup EMAIL USER CODE   the CRM contacts a listing by e-mail and an upsert of the e-mail find,
                          and whether the user's recovery code is accepted
"""

from __future__ import annotations

import secrets
import sys

from tortoise import connections

from app.crm.contact import service as contacts
from app.crm.contact.schemas import ContactWrite
from app.http.paging import KeysetPage
from app.identity.twofactor.service import consume_recovery_code, replace_recovery_codes
from app.platform.domain.service import add_sender_domain
from app.platform.tenant.service import create_tenant
from herald.admin import run_operation
from kit.settings import get_settings
from models.identity.users import User
from models.platform.provider_config import set_provider_config

CRM_TENANT = "acc_keys"
SYSTEMS = ("platform", "identity", "crm")


async def seal(email: str) -> dict:
    tenant = await create_tenant("Keys", None, None, None, "")
    await set_provider_config(tenant.id, "email", "smtp", {"host": "smtp.example.com"}, {"password": "hunter2"})
    await add_sender_domain(tenant.id, "keys.example.com", dmarc=False)
    contact, _ = await contacts.upsert(connections.get("crm"), CRM_TENANT, ContactWrite(email=email, nome="Ada"))
    user = await User.create(public_id=f"usr_{secrets.token_hex(12)}", email="keys@example.com",
                             email_key="keys@example.com", password_hash="not a hash")
    codes = await replace_recovery_codes(connections.get("identity"), user)
    return {"TenantId": tenant.public_id, "TenantPk": tenant.id, "ContactId": contact.public_id,
            "UserId": user.public_id, "Codes": codes}


async def recover(user_id: str, code: str) -> dict:
    user = await User.get(public_id=user_id)
    return {"Accepted": await consume_recovery_code(connections.get("identity"), user, code)}


async def lookup(email: str, user_id: str, code: str) -> dict:
    conn = connections.get("crm")
    page = KeysetPage(10, None, get_settings().require_secret_keys())
    listed = await contacts.list_contacts(conn, CRM_TENANT, page, q=email, list_id=None)
    row, created = await contacts.upsert(conn, CRM_TENANT, ContactWrite(email=email))
    return {"Listed": [item.public_id for item in listed.items], "Upserted": row.public_id, "Created": created,
            **await recover(user_id, code)}


STEPS = {"seal": seal, "recover": recover, "lookup": lookup}

if __name__ == "__main__":
    step, args = STEPS[sys.argv[1]], sys.argv[2:]
    raise SystemExit(run_operation(lambda: step(*args), SYSTEMS))
