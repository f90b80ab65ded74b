"""Amazon SNS's own URLs, for the SES callback (app/platform/relay_event/sns.py: the signing
certificate) and the subscription's confirmation (tasks/platform/sns_subscriptions.py): what they may
be, https on ``sns.<region>.amazonaws.com`` (``.com.cn`` in China), and the one way they are fetched,
through the egress (kit/egress.py: no redirects, public addresses, the answer capped).

A ``SubscribeURL`` must also confirm the account's own topic (``Action=ConfirmSubscription``, its
``TopicArn``) on that topic's region. An account (or the operator) may name where SNS answers instead
of AWS's host (``sns_base_url``, an endpoint override as the AWS SDKs' ``endpoint_url``; through the
egress like every provider URL): the same query is then asked there. This is how the tests reach a
local SNS; the URL SNS signed is checked all the same.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import httpx

from kit import egress

HOST = r"sns\.([a-z0-9-]{1,30})\.amazonaws\.com(?:\.cn)?"
CERTIFICATE_URL = re.compile(rf"^https://{HOST}/[A-Za-z0-9._/-]{{1,200}}\.pem$")
SUBSCRIBE_URL = re.compile(rf"^https://{HOST}/\?([A-Za-z0-9._~%&=:-]{{1,2000}})$")
FETCH_TIMEOUT = 10.0


class Unreachable(Exception):
    """SNS's own URL (the certificate, the SubscribeURL) could not be fetched: try again later."""


def topic_region(topic_arn: str | None) -> str | None:
    """The region of ``arn:<partition>:sns:<region>:<account>:<name>``."""
    parts = topic_arn.split(":") if isinstance(topic_arn, str) else []
    return parts[3] if len(parts) == 6 and parts[0] == "arn" and parts[2] == "sns" and parts[3] else None


def subscribe_url_problem(url, topic_arn: str | None) -> str | None:
    """Why ``url`` is not a confirmation of ``topic_arn`` on SNS's own host (None when it is)."""
    match = SUBSCRIBE_URL.match(url) if isinstance(url, str) else None
    if match is None:
        return "the SubscribeURL is not an https URL on sns.<region>.amazonaws.com"
    if match.group(1) != topic_region(topic_arn):
        return "the SubscribeURL is not on the topic's region"
    query = parse_qs(match.group(2))
    if query.get("Action") != ["ConfirmSubscription"] or query.get("TopicArn") != [topic_arn]:
        return "the SubscribeURL does not confirm the account's topic"
    return None


def confirmation_target(url: str, sns_base_url: str | None) -> str:
    """Where to ask for the confirmation: ``url`` itself, or its query at the configured endpoint."""
    if not sns_base_url:
        return url
    return f"{sns_base_url.rstrip('/')}/?{url.split('?', 1)[1]}"


async def fetch(url: str, policy: egress.Policy = egress.PROVIDERS) -> bytes:
    """GET ``url`` through the egress (by default https on 443 to public addresses), no redirects, capped."""
    where = url.split("?", 1)[0]  # a SubscribeURL's query holds its confirmation token: never in a log line
    try:
        async with egress.client(policy, timeout=FETCH_TIMEOUT) as http:
            response = await http.get(url)
    except (egress.EgressError, httpx.HTTPError, OSError) as error:
        reason = str(error).replace(url, where)
        raise Unreachable(f"cannot fetch {where}: {type(error).__name__}: {reason}") from None
    if response.status_code != 200:
        raise Unreachable(f"{where} answered HTTP {response.status_code}")
    return response.content
