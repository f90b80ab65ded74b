"""Classing traffic and naming its dimensions, from what a browser sends: no I/O, no database.

- :func:`bot_reason`: a user agent that names itself a bot, crawler, headless browser or HTTP
  library; the reason is kept (``ua:<token>``). Datacenter ASNs (issue 16, the operator's list) are
  not classed yet: nothing here looks at addresses, and no address is ever stored.
- :func:`device`, :func:`browser`: coarse families from the user agent.
- :func:`source`: the referrer's host, ``direct`` without one, the site itself as ``internal``.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_BOT_TOKENS = ("bot", "crawler", "spider", "slurp", "headlesschrome", "phantomjs", "python-requests",
               "python-httpx", "aiohttp", "curl/", "wget/", "go-http-client", "java/", "okhttp", "scrapy",
               "lighthouse", "pingdom", "uptime", "facebookexternalhit")
# The whole product word around a token ("googlebot" in "Googlebot/2.1"), kept as the reason.
_BOT = re.compile("[a-z0-9._-]*(?:" + "|".join(re.escape(token) for token in _BOT_TOKENS) + ")[a-z0-9._-]*")


def bot_reason(user_agent: str) -> str | None:
    ua = (user_agent or "").lower()
    if not ua.strip():
        return "ua:empty"
    found = _BOT.search(ua)
    return f"ua:{found.group(0).split('/')[0][:40]}" if found else None


def device(user_agent: str, width: int | None = None) -> str:
    ua = (user_agent or "").lower()
    if "ipad" in ua or "tablet" in ua or ("android" in ua and "mobile" not in ua):
        return "tablet"
    if "mobi" in ua or "iphone" in ua:
        return "mobile"
    if width is not None and 0 < width < 768:
        return "mobile"
    return "desktop"


def browser(user_agent: str) -> str:
    ua = (user_agent or "").lower()
    for token, name in (("edg/", "edge"), ("opr/", "opera"), ("samsungbrowser", "samsung"), ("firefox/", "firefox"),
                        ("chrome/", "chrome"), ("crios/", "chrome"), ("safari/", "safari")):
        if token in ua:
            return name
    return "other"


def source(referrer: str | None, site: str) -> str:
    if not referrer:
        return "direct"
    try:
        host = (urlsplit(referrer).hostname or "").lower()
    except ValueError:
        return "direct"
    if not host:
        return "direct"
    if host == site or host.endswith("." + site):
        return "internal"
    return host[4:] if host.startswith("www.") else host
