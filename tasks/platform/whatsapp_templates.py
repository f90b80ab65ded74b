"""WhatsApp template approval: ``whatsapp_templates.submit`` and ``whatsapp_templates.check``.

A WhatsApp template made or changed on the dashboard is ``pending`` (app/platform/template/service.py),
and the upsert enqueues ``submit`` in its own transaction. ``submit`` hands the template to the
account's WhatsApp provider (its own configuration, else the platform's default) for review:
with the Cloud API (providers/whatsapp_cloud.py) a new template is created in the WhatsApp
Business Account, a known one (``provider_template_id``) gets its new body. ``check`` reads the
review's outcome; schedules/platform/whatsapp_templates.py enqueues it for every pending template that was
submitted, at most once a POLL_SECONDS, and enqueues ``submit`` again for one that could not be
submitted (no provider able to, a provider configuration error) at most once a RESUBMIT_SECONDS.

State transitions (``templates.status``, with ``status_reason``):

- ``pending`` -> ``approved``: Graph says APPROVED (in the submission's answer or a status read);
- ``pending`` -> ``rejected``: Graph says REJECTED, DISABLED, ... (the reason kept), or refuses the
  submission itself (4xx other than 401/403/429: the template is not acceptable as written);
- ``pending`` stays: the review is not done, or the submission could not be made (the reason says
  why: no provider that can submit, a configuration error); a transient error is retried by
  Dramatiq with backoff;
- any -> ``pending``: the template's Text or Language changed (the upsert; submitted again).

Every write is conditional on the template still being pending with the text that was submitted
(or the provider id that was read), so a late answer never overwrites a newer edit.
"""

from __future__ import annotations

import logging

import dramatiq
from tortoise import connections

from kit.actors import Actor
from models.platform.provider_config import tenant_provider
from models.platform.template import Template, TemplateState
from providers.errors import PermanentProviderError, ProviderConfigError, TransientProviderError
from providers.whatsapp_cloud import approval_state

log = logging.getLogger("herald.whatsapp_templates")

MAX_REASON = 500

_SUBMITTED = """
UPDATE templates SET provider_template_id = $2, submitted_at = now(), checked_at = now(), status = $3,
    status_reason = $4, updated_at = now()
WHERE id = $1 AND channel = 'whatsapp' AND status = 'pending' AND text IS NOT DISTINCT FROM $5 AND language = $6
"""
_WAITING = """
UPDATE templates SET checked_at = now(), status_reason = $2
WHERE id = $1 AND channel = 'whatsapp' AND status = 'pending' AND text IS NOT DISTINCT FROM $3 AND language = $4
"""
_REVIEWED = """
UPDATE templates SET checked_at = now(), status = $3::varchar, status_reason = $4,
    updated_at = CASE WHEN $3::varchar = 'pending' THEN updated_at ELSE now() END
WHERE id = $1 AND channel = 'whatsapp' AND status = 'pending' AND provider_template_id = $2
"""


async def _provider(template: Template):
    """The provider that reviews this account's WhatsApp templates, or (None, why not)."""
    from tasks.platform.delivery import providers

    config = await tenant_provider(template.tenant_id, "whatsapp")
    try:
        provider = providers().for_message("whatsapp", "live", config)
    except ProviderConfigError as error:
        return None, f"the WhatsApp provider cannot be used: {error}"
    if not hasattr(provider, "submit_template"):
        return None, (f"the account's WhatsApp provider ({getattr(provider, 'key', '?')}) does not review "
                      "templates; configure whatsapp_cloud with business_account_id")
    return provider, None


async def submit(template_pk: int) -> str:
    template = await Template.get_or_none(id=template_pk)
    if template is None or template.channel != "whatsapp" or template.status != TemplateState.PENDING.value:
        return "skipped"
    db = connections.get("platform")
    waiting = [template.id, None, template.text, template.language]
    provider, why_not = await _provider(template)
    if provider is None:
        waiting[1] = why_not[:MAX_REASON]
        await db.execute_query(_WAITING, waiting)
        return "no provider"
    try:
        provider_id, status = await provider.submit_template(template.slug, template.language, template.text or "",
                                                             template_id=template.provider_template_id)
    except TransientProviderError:
        raise  # Dramatiq retries with backoff
    except ProviderConfigError as error:
        waiting[1] = f"not submitted: {error}"[:MAX_REASON]
        await db.execute_query(_WAITING, waiting)
        return "configuration"
    except PermanentProviderError as error:
        await db.execute_query(_SUBMITTED, [template.id, template.provider_template_id, "rejected",
                                            f"refused by the provider: {error}"[:MAX_REASON], template.text,
                                            template.language])
        return "refused"
    state = approval_state(status)
    await db.execute_query(_SUBMITTED, [template.id, provider_id, state,
                                        None if state == "approved" else f"provider status {status}",
                                        template.text, template.language])
    return state


async def check(template_pk: int) -> str:
    template = await Template.get_or_none(id=template_pk)
    if (template is None or template.channel != "whatsapp" or template.status != TemplateState.PENDING.value
            or not template.provider_template_id):
        return "skipped"
    db = connections.get("platform")
    provider, why_not = await _provider(template)
    if provider is None:
        await db.execute_query("UPDATE templates SET checked_at = now(), status_reason = $2 WHERE id = $1 "
                               "AND status = 'pending'", [template.id, why_not[:MAX_REASON]])
        return "no provider"
    try:
        status, reason = await provider.template_status(template.provider_template_id)
    except (ProviderConfigError, PermanentProviderError) as error:
        await db.execute_query("UPDATE templates SET checked_at = now(), status_reason = $2 WHERE id = $1 "
                               "AND status = 'pending'", [template.id, f"status not read: {error}"[:MAX_REASON]])
        return "unreadable"
    state = approval_state(status)
    text = None if state == "approved" else (reason or f"provider status {status}")
    await db.execute_query(_REVIEWED, [template.id, template.provider_template_id, state,
                                       text[:MAX_REASON] if text else None])
    return state


def _transient(retries: int, error: Exception) -> bool:
    return isinstance(error, TransientProviderError) and retries < 20


@dramatiq.actor(actor_name=Actor.WHATSAPP_TEMPLATE_SUBMIT.name, queue_name=Actor.WHATSAPP_TEMPLATE_SUBMIT.queue.value,
                max_retries=20, min_backoff=2_000, max_backoff=600_000, retry_when=_transient, time_limit=60_000)
async def submit_template(template_pk: int) -> None:
    log.debug("whatsapp template %s submitted: %s", template_pk, await submit(template_pk))


@dramatiq.actor(actor_name=Actor.WHATSAPP_TEMPLATE_CHECK.name, queue_name=Actor.WHATSAPP_TEMPLATE_CHECK.queue.value,
                max_retries=5, min_backoff=2_000, max_backoff=120_000, retry_when=_transient, time_limit=60_000)
async def check_template(template_pk: int) -> None:
    log.debug("whatsapp template %s checked: %s", template_pk, await check(template_pk))
