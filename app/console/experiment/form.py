"""The variants form: rows of name, weight and an optional headline, read from the posted form and
checked before anything is sent, so a person learns that the weights do not add up to 100 beside
the fields rather than from the pages system's refusal to start the test.

A variant's content is the page's draft; a headline, when given, replaces the text of the draft's
first heading (or opens the page when it has none): the change most A/B tests of a landing page
make, without a block editor."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping

MAX_VARIANTS = 10  # the pages system's bound (models/pages/page.py MAX_VARIANTS)
MAX_NAME = 100
MAX_HEADLINE = 300
# Browsers send empty fields, but Sanic drops blank values: a row is any index of its three fields.
ROW = re.compile(r"^(?:name|weight|headline)-(\d{1,2})$")


def blank(name: str = "", weight: str = "") -> dict:
    return {"name": name, "weight": weight, "headline": ""}


def starting_rows(saved: int) -> list[dict]:
    """No variant saved yet: the original and a challenger at 50/50; else one empty row to add."""
    return [blank("Original", "50"), blank("B", "50")] if saved == 0 else [blank()]


def rows_of_form(form: Mapping) -> list[dict]:
    indexes = sorted({int(found.group(1)) for key in form if (found := ROW.match(key))})
    rows = []
    for index in indexes[:MAX_VARIANTS]:
        rows.append({"name": (form.get(f"name-{index}") or "").strip()[:MAX_NAME + 1],
                     "weight": (form.get(f"weight-{index}") or "").strip().rstrip("%").strip()[:8],
                     "headline": (form.get(f"headline-{index}") or "").strip()[:MAX_HEADLINE + 1]})
    return rows


def check(rows: list[dict], saved: list[dict]) -> dict[str, str]:
    """Errors keyed by field id (``weight-1``, ``variants`` for the sum), in the order shown."""
    errors: dict[str, str] = {}
    total = sum(int(item["Weight"]) for item in saved)
    names = {item["Name"].casefold() for item in saved}
    weights_readable = True
    for index, row in enumerate(rows):
        label = f"variant {len(saved) + index + 1}"
        if not row["name"]:
            errors[f"name-{index}"] = f"Enter the name of {label}"
        elif len(row["name"]) > MAX_NAME:
            errors[f"name-{index}"] = f"The name of {label} must be {MAX_NAME} characters or less"
        elif row["name"].casefold() in names:
            errors[f"name-{index}"] = f"Give {label} a name no other variant has"
        names.add(row["name"].casefold())
        if not row["weight"]:
            errors[f"weight-{index}"] = f"Enter the weight of {label}, a whole number from 0 to 100"
            weights_readable = False
        elif not row["weight"].isdigit() or int(row["weight"]) > 100:
            errors[f"weight-{index}"] = f"The weight of {label} must be a whole number from 0 to 100"
            weights_readable = False
        else:
            total += int(row["weight"])
        if len(row["headline"]) > MAX_HEADLINE:
            errors[f"headline-{index}"] = f"The headline of {label} must be {MAX_HEADLINE} characters or less"
    if not rows:
        errors["name-0"] = f"Enter the name of variant {len(saved) + 1}"
    count = len(saved) + len(rows)
    if count < 2:
        errors["variants"] = "A test needs at least two variants: add another one"
    elif count > MAX_VARIANTS:
        errors["variants"] = f"A test has at most {MAX_VARIANTS} variants"
    elif weights_readable and total != 100:
        already = f" (with the {sum(int(item['Weight']) for item in saved)} % of the variants already saved)" \
            if saved else ""
        errors["variants"] = f"The weights add up to {total} %{already}; they must add up to exactly 100 %"
    return errors


def blocks_for(draft: list[dict], headline: str) -> list[dict] | None:
    """The variant's blocks: None (the pages system copies the draft) without a headline."""
    if not headline:
        return None
    blocks = copy.deepcopy(draft)
    for block in blocks:
        if block.get("Type") == "heading":
            block["Text"] = headline
            return blocks
    return [{"Type": "heading", "Text": headline, "Level": 1}, *blocks]


def headline_of(blocks: list[dict] | None) -> str:
    return next((block.get("Text", "") for block in blocks or [] if block.get("Type") == "heading"), "")
