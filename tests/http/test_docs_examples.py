"""Every request body shown in docs/*.md (a ``curl ... -d '{...}'`` in a code block) is one the
product accepts: each is sent as written to the running system, with the documented credential and
real ids in place of the docs' ``mid_...``-style placeholders, and none is refused (400 or 422)."""

from __future__ import annotations

import json
import re
import secrets
import shlex
import uuid
from pathlib import Path

import httpx

from models.platform.api_key import KeyKind
from models.platform.scopes import SCOPES
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member
from tests.fixtures.identity import service_headers
from tests.pages.conftest import make_list
from tests.pages.test_media import png

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)
PLACEHOLDER = re.compile(r"\b([a-z]{2,4})_\.\.\.")


def commands(text: str) -> list[str]:
    """The curl commands of a code block, continuation lines joined, comments dropped."""
    text = text.replace("\\\n", " ")
    found, start = [], 0
    while (start := text.find("curl ", start)) != -1:
        quote, end = None, start
        while end < len(text):
            char = text[end]
            if quote:
                quote = None if char == quote else quote
            elif char in "'\"":
                quote = char
            elif char == "\n" or (char == "#" and text[end - 1] == " "):
                break
            end += 1
        found.append(text[start:end])
        start = end
    return found


def documented_bodies() -> list[tuple[str, str, str, list[str], str]]:
    """(doc, method, url, headers, body) of every documented request with a JSON body."""
    out = []
    for doc in sorted(DOCS.glob("*.md")):
        for block in FENCE.findall(doc.read_text()):
            for command in commands(block):
                words = shlex.split(command)
                if "-d" not in words:
                    continue
                body = words[words.index("-d") + 1]
                method = words[words.index("-X") + 1] if "-X" in words else "POST"
                headers = [words[i + 1] for i, word in enumerate(words) if word == "-H"]
                url = next(word for word in words[1:] if "/" in word and not word.startswith("-")
                           and word not in headers and word != body)
                out.append((doc.name, method, url, headers, body))
    return out


# Refusals of the account's state, not of the body: the mail API's walk-through adds a domain the test
# cannot publish DNS for, so the mailbox and the send that follow it are refused for what is missing.
# (tests/mail/test_email.py walks the same steps with a domain the tests' DNS server publishes.)
STATE_REFUSALS = {("mail.md", "DomainNotVerified"), ("mail.md", "CaixaRemetenteInexistente")}


def code_of(answer: httpx.Response) -> str | None:
    try:
        body = answer.json()
    except ValueError:
        return None
    return body.get("error") if isinstance(body.get("error"), str) else (body.get("error") or {}).get("code")


async def test_every_documented_request_body_is_accepted(servers, dashboard, identity, make_account):
    bases = {"$P": servers("pages").url, "$SITES": servers("runtime").url, "$IDENTITY_URL": servers("identity").url,
             "$MAIL_URL": servers("mail").url,
             "http://127.0.0.1:8000": servers("platform").url, "localhost:8000": servers("platform").url}
    owner = await signed_in_member(identity, dashboard, "docs")
    tenant = (await new_account(dashboard, owner, f"Docs {secrets.token_hex(3)}"))["Id"]
    account = await make_account(scopes=tuple(SCOPES), kind=KeyKind.TEST)
    key = account.key
    # docs/pages.md's form sends its leads to the account's CRM list "newsletter": the account has one,
    # as a reader following the walk-through would (a list it lacks is a 422 while the CRM answers).
    await make_list(servers("crm").url, service_headers(), account.tenant_id, "newsletter")
    values = {"$KEY": key, "$SESSION": owner.token, "$SERVICE_TOKEN": service_headers()["Authorization"][7:],
              "acc_...": tenant}
    async with httpx.AsyncClient(timeout=20) as http:
        pages = {"Authorization": f"Bearer {key}"}
        media = await http.post(bases["$P"] + "/v1/midias", headers=pages, files={"arquivo": ("a.png", png(7), "image/png")})
        form = await http.post(bases["$P"] + "/v1/formularios", headers=pages, json={
            "Name": "Docs", "Fields": [{"Name": "email", "Label": "E-mail", "Type": "email"}]})
        assert media.status_code in (200, 201) and form.status_code == 201, (media.text, form.text)
        real = {"mid": media.json()["Midia"]["Id"], "frm": form.json()["Formulario"]["Id"]}

        def filled(text: str) -> str:
            for name, value in values.items():
                text = text.replace(name, value)
            return PLACEHOLDER.sub(lambda found: real.get(found.group(1), f"{found.group(1)}_{uuid.uuid4().hex[:24]}"),
                                   text)

        found = documented_bodies()
        assert len(found) >= 8, found
        refused = []
        for doc, method, url, headers, body in found:
            for base, address in bases.items():
                if url.startswith(base):
                    url = address + url[len(base):]
            sent_headers = dict(line.split(":", 1) for line in (filled(header) for header in headers))
            answer = await http.request(method, filled(url), headers={k: v.strip() for k, v in sent_headers.items()},
                                        content=filled(body).encode())
            assert json.loads(filled(body)) is not None
            if answer.status_code in (400, 422) and (doc, code_of(answer)) not in STATE_REFUSALS:
                refused.append((doc, method, url, answer.status_code, answer.text[:300]))
    assert not refused, "\n".join(map(str, refused))
