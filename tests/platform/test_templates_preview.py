"""POST /api/templates/preview: unsaved parts rendered as a send renders them (HTML autoescaped,
a missing variable 422 naming it, a template the sandbox refuses 422), nothing saved, and a
person's previews capped per minute (429 Throttling with Retry-After)."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member


async def test_preview_renders_saves_nothing_and_is_capped(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tplpreview")
    account = await new_account(dashboard, owner, "Preview Co")
    headers = {**owner.auth, "X-Service-Tenant": account["Id"]}
    shown = await dashboard.post("/api/templates/preview", headers=headers, json={
        "Channel": "email", "Subject": "Hi {{ name }}", "Html": "<p>Hello {{ name }}</p>",
        "Variables": {"name": "<Ana>"}})
    assert shown.status_code == 200, shown.text
    assert shown.json()["Preview"] == {"Subject": "Hi <Ana>", "Text": None, "Html": "<p>Hello &lt;Ana&gt;</p>"}
    assert shown.json()["Variables"] == ["name"]
    assert (await dashboard.get("/api/templates", headers=headers)).json()["Templates"] == []

    missing = await dashboard.post("/api/templates/preview", headers=headers,
                                   json={"Channel": "sms", "Text": "Code {{ code }}", "Variables": {}})
    assert missing.status_code == 422 and "Variables.code" in missing.json()["Error"]["Details"]
    broken = await dashboard.post("/api/templates/preview", headers=headers, json={"Channel": "sms", "Text": "{{ x"})
    assert broken.status_code == 422
    unknown = await dashboard.post("/api/templates/preview", headers=headers,
                                   json={"Channel": "sms", "Text": "x", "Slug": "not-a-field"})
    assert unknown.status_code == 400

    statuses = []
    for _ in range(32):
        answer = await dashboard.post("/api/templates/preview", headers=headers, json={"Channel": "sms", "Text": "hi"})
        statuses.append(answer.status_code)
        if answer.status_code == 429:
            assert answer.json()["Error"]["Code"] == "Throttling" and int(answer.headers["Retry-After"]) >= 1
            break
    assert statuses[-1] == 429 and set(statuses[:-1]) == {200}
