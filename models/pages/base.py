"""What every pages model shares: public ids (a prefix and random hex; internal numeric ids never
leave the database) and the account column (the platform's ``acc_<hex>``: the pages database keeps
no tenants of its own, so a row names its account by the platform's public id)."""

from __future__ import annotations

import secrets

from tortoise import fields


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(12)}"


def tenant_field():
    return fields.CharField(max_length=40, db_index=True)


# One named function per prefix: a migration refers to a default by its module and name.
def new_page_id() -> str:
    return new_id("pag")


def new_destination_id() -> str:
    return new_id("dst")


def new_experiment_id() -> str:
    return new_id("exp")


def new_variant_id() -> str:
    return new_id("var")


def new_form_id() -> str:
    return new_id("frm")


def new_redirect_id() -> str:
    return new_id("rdr")


def new_media_id() -> str:
    return new_id("mid")


def new_domain_id() -> str:
    return new_id("dom")
