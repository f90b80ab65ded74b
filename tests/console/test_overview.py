"""The overview over HTTP: the reports' totals for the range in the URL, each number a link to the
filtered list, the traffic table the chart is drawn from (uPlot, vendored, from the console's own
origin), and another account's overview a 404."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from html import unescape

from tests.console.conftest import owner_with_account
from tests.fixtures.identity import PASSWORD


async def test_overview_numbers_links_and_range(browser, another_browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-overview", "Overview Co")
    sent = await dashboard.post("/api/messages/send", headers={**owner.auth, "X-Service-Tenant": account["Id"]},
                                json={"Channel": "sms", "Recipients": ["+14155550111", "+14155550112", "+14155550113"],
                                      "Text": "counted"})
    assert sent.status_code == 202, sent.text
    path = f"/a/{account['Id']}/overview"
    await browser.sign_in(owner.person.email, PASSWORD)
    page = await browser.get(path)
    assert page.status_code == 200 and 'aria-current="page">Overview<' in page.text
    assert 'href="?range=7d" aria-current="page"' in page.text and "Last 7 days</h2>" in page.text
    # Each number opens the list over the range's days (UTC): 7 days back from the next full hour.
    end = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    days = f"from={(end - timedelta(days=7)).date()}&to={(end - timedelta(seconds=1)).date()}"
    accepted = re.search(r'<a href="(/a/[^"]+/messages[^"]*)"><span class="number">([\d,]+)</span> <span class="what">Accepted',
                         page.text)
    assert accepted and unescape(accepted.group(1)) == f"/a/{account['Id']}/messages?{days}" and accepted.group(2) == "3"
    assert "+3 on the period before" in page.text and "no change on the period before" in page.text
    bounce_rate = f'/a/{account["Id"]}/messages?status=bounced&{days}'
    assert f'href="{bounce_rate.replace("&", "&amp;")}"><span class="number">0.0 %</span>' in page.text
    listed = await browser.get(unescape(accepted.group(1)))  # the list behind the number, range kept
    assert listed.status_code == 200 and all(f"+1415555011{n}" in listed.text for n in (1, 2, 3))
    assert f'id="from" name="from" type="date" value="{(end - timedelta(days=7)).date()}"' in listed.text
    table = re.findall(r'<td data-at="[^"]+">[^<]+</td><td class="number">(\d+)</td>', page.text)
    assert sum(int(count) for count in table) == 3 and len(table) >= 7
    assert re.search(r'src="/static/[0-9a-f]{12}/vendor/uplot/uPlot.iife.min.js"', page.text)
    uplot = re.search(r'src="(/static/[0-9a-f]{12}/vendor/uplot/uPlot.iife.min.js)"', page.text).group(1)
    assert (await browser.get(uplot)).status_code == 200

    day = await browser.get(path, params={"range": "24h"})
    assert "Last 24 hours</h2>" in day.text and "Messages per hour" in day.text
    assert len(re.findall(r'<td data-at="', day.text)) >= 24
    yesterday = f"from={(end - timedelta(hours=24)).date()}&amp;to={(end - timedelta(seconds=1)).date()}"
    assert f'href="/a/{account["Id"]}/messages?status=sent&amp;{yesterday}"' in day.text

    outsider, _ = await owner_with_account(identity, dashboard, "console-overview-out", "Elsewhere")
    await another_browser.sign_in(outsider.person.email, PASSWORD)
    assert (await another_browser.get(path)).status_code == 404
