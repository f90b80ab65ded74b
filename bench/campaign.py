"""The SMTP steps' workload (bench/smtp_e2e.py, bench/drain.py): a campaign's e-mails, each
recipient's subject and body its own (what template variables give), as in the delivery floor's
workload (bench/delivery_floor.py), and their acceptance in batches of 500."""

from __future__ import annotations

import httpx

BATCH = 500


def campaign_email(domain: str, index: int) -> dict:
    """The campaign's ``index``th e-mail (its recipient ``e2e<index>@example.com``)."""
    return {"Source": f"Bench <bench@{domain}>", "Destination": {"ToAddresses": [f"e2e{index}@example.com"]},
            "Message": {"Subject": {"Data": f"Your code, e2e{index}"},
                        "Body": {"Text": {"Data": f"Hello e2e{index},\n\nyour code is {index * 7919 % 1000003:07d}.\n"}}}}


async def accept_campaign(stack, first: int, count: int) -> None:
    """``count`` e-mails from the ``first``th, through ``POST /v1/emails/batch`` of ``stack`` (bench/chaos.py
    ``LiveStack``) with its key, a batch at a time."""
    headers = {"Authorization": f"Bearer {stack.key}"}
    async with httpx.AsyncClient(base_url=stack.url, timeout=60) as client:
        for start in range(0, count, BATCH):
            items = [campaign_email(stack.domain, first + start + i) for i in range(min(BATCH, count - start))]
            response = await client.post("/v1/emails/batch", json={"Messages": items}, headers=headers)
            response.raise_for_status()
