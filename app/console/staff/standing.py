"""The staff account page's usage and tree, from ``GET /api/admin/tenants/{id}/usage`` and ``/tree``
(app/platform/support/standing.py): platform facts read without a support session.

Either answer missing leaves its section saying so; the rest of the page (the row, suspend, enter)
still works, as it does not depend on them.
"""

from __future__ import annotations

import calendar
from typing import Any

from app.console import upstream

# The quota bar's width goes in steps of 5 %: a class each (staff.css), as the console's CSP forbids
# inline styles.
STEP = 5
CHANNELS = (("EmailsSent", "E-mail"), ("SmsSent", "SMS"), ("PushSent", "Push"), ("WhatsAppSent", "WhatsApp"))


def month(period: str) -> str:
    """``2026-11`` as "November 2026" (the period as it came when it is not one)."""
    year, _, number = period.partition("-")
    if year.isdigit() and number.isdigit() and 1 <= int(number) <= 12:
        return f"{calendar.month_name[int(number)]} {year}"
    return period


def usage_context(answer: upstream.Answer) -> dict[str, Any] | None:
    """What the usage section shows, or None when the platform did not answer it."""
    usage, quota = answer.get("Usage"), answer.get("Quota")
    if not answer.ok or not isinstance(usage, dict) or not isinstance(quota, dict):
        return None
    limit, sent = quota.get("MonthlyQuota"), int(quota.get("Sent") or 0)
    share = None if not limit else sent / limit
    if limit == 0:
        share = 1.0 if sent else 0.0  # a quota of 0 allows nothing: spent from the start
    percent = None if share is None else round(share * 100)
    step = None if share is None else min(100, STEP * round(min(share, 1.0) * 100 / STEP))
    if share is not None and sent and step == 0:
        step = STEP  # something was sent: the bar never reads empty
    return {"month": month(str(usage.get("Period") or "")), "sent": sent, "limit": limit, "percent": percent,
            "step": step, "level": None if share is None else "over" if share >= 1 else "high" if share >= .8 else "",
            "remaining": quota.get("Remaining"), "inherited": bool(quota.get("Inherited")),
            "channels": [(label, int(usage.get(name) or 0)) for name, label in CHANNELS],
            "api_calls": int(usage.get("ApiCalls") or 0), "updated": usage.get("UpdatedAt")}


def tree_context(answer: upstream.Answer) -> dict[str, Any] | None:
    """The accounts above (top-level first) and the sub-accounts, or None when not answered."""
    nodes, above = answer.get("Tree"), answer.get("Ancestors")
    if not answer.ok or not isinstance(nodes, list) or not isinstance(above, list):
        return None
    children = nodes[0].get("Children", []) if nodes and isinstance(nodes[0], dict) else []
    return {"ancestors": above, "parent": above[-1] if above else None, "children": children}


def context(usage: upstream.Answer, tree: upstream.Answer, row: dict) -> dict[str, Any]:
    found = tree_context(tree)
    if found is None and row.get("ParentId"):  # the tree unanswered, the row still names the parent
        parent = {"Id": row["ParentId"], "Name": row["ParentId"]}
        found = {"ancestors": [parent], "parent": parent, "children": None}
    return {"usage": usage_context(usage), "tree": found}
