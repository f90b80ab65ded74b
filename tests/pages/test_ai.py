"""AI page generation: 503 when no provider is configured (the default); with a provider speaking the
OpenAI-compatible chat API, blocks validated like a page's and nothing saved."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.pages.conftest import ALL_SCOPES
from tests.pages.servers import ChatServer

BRIEF = {"Brief": "A landing page for a yoga studio's spring discount.", "Language": "en"}


async def test_without_a_provider_generation_is_unavailable(pages, account):
    answer = await pages.post("/v1/ia/gerar-pagina", headers=account.headers, json=BRIEF)
    assert answer.status_code == 503 and answer.json()["Error"]["Code"] == "ServiceUnavailable"


@pytest.fixture
def chat():
    page = {"Title": "Spring yoga", "Seo": {"Title": "Spring yoga", "Description": "20% off"},
            "Blocks": [{"Type": "heading", "Text": "Breathe in spring", "Level": 1},
                       {"Type": "text", "Text": "20% off every class."},
                       {"Type": "button", "Label": "Book now", "Url": "#form"}]}
    server = ChatServer(json.dumps(page))
    yield server
    server.close()


async def test_a_provider_turns_a_brief_into_blocks_and_nothing_is_saved(start_server, chat, make_account, servers):
    servers("platform")
    server = start_server("pages", AI_BASE_URL=f"{chat.url}/v1", AI_API_KEY="sk-test", AI_MODEL="tiny")
    account = await make_account(scopes=ALL_SCOPES)
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as pages:
        answer = await pages.post("/v1/ia/gerar-pagina", headers=account.headers, json=BRIEF)
        assert answer.status_code == 200, answer.text
        made = answer.json()["Pagina"]
        assert made["Title"] == "Spring yoga" and made["Blocks"][2]["Label"] == "Book now"
        sent = json.loads(chat.requests[-1][2])
        assert sent["model"] == "tiny" and BRIEF["Brief"] in sent["messages"][-1]["content"]
        assert (await pages.get("/v1/paginas", headers=account.headers)).json()["Paginas"] == []

        chat.reply = json.dumps({"Title": "x", "Blocks": [{"Type": "script", "Text": "alert(1)"}]})
        assert (await pages.post("/v1/ia/gerar-pagina", headers=account.headers, json=BRIEF)).status_code == 502
        short = await pages.post("/v1/ia/gerar-pagina", headers=account.headers, json={"Brief": "short"})
        assert short.status_code == 400


def test_an_ai_provider_no_plugin_has_stops_the_start(start_server, servers):
    servers("platform")
    with pytest.raises(RuntimeError) as failed:
        start_server("pages", AI_BASE_URL="http://127.0.0.1:9/v1", AI_PROVIDER="nope")
    assert "AI_PROVIDER='nope' names no plug-in of herald.providers.ai" in str(failed.value)
    assert "openai" in str(failed.value)
