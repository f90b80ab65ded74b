"""A page's blocks as the editor's form carries them, and back.

The form names each block's fields ``b<i>-<field>`` (``b0-type``, ``b0-text``, ``b1-url`` ...) with
``blocks`` the count, in the order shown. The editor's actions (add a block, remove, move up or
down) act on that list before it is saved, so a person never loses what they typed. The pages
system validates the blocks (app/pages/page/schemas.py); its refusals come back named
``Blocks.<i>.<type>.<Field>`` and are put beside the block's field here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# The block types of the pages system, in words, in the order the "Add a block" menu offers them.
TYPES = {"heading": "Heading", "text": "Text", "image": "Image", "button": "Button", "form": "Form",
         "embed": "Embedded page", "divider": "Divider"}
# Each type's fields: the form's name -> the pages system's.
FIELDS = {"heading": {"text": "Text", "level": "Level"}, "text": {"text": "Text"},
          "image": {"media": "MediaId", "url": "Url", "alt": "Alt"},
          "button": {"label": "Label", "url": "Url", "style": "Style"}, "form": {"form": "FormId"},
          "embed": {"url": "Url", "height": "Height"}, "divider": {}}
NUMBERS = {"level", "height"}
MAX_BLOCKS = 200
PROBLEM = re.compile(r"^Blocks\.(\d+)(?:\.[a-z]+)?(?:\.([A-Za-z]+))?$")
STARTERS = {"heading": {"Type": "heading", "Text": "", "Level": 2}, "text": {"Type": "text", "Text": ""},
            "image": {"Type": "image", "Url": "", "Alt": ""},
            "button": {"Type": "button", "Label": "", "Url": "", "Style": "primary"},
            "form": {"Type": "form", "FormId": ""}, "embed": {"Type": "embed", "Url": "", "Height": 400},
            "divider": {"Type": "divider"}}


def from_form(form: Mapping[str, str]) -> tuple[list[dict], dict[str, str]]:
    """The blocks the form holds (in the pages system's shape) and the problems found before sending
    (a number that is not one)."""
    raw = str(form.get("blocks") or "0")
    count = min(int(raw), MAX_BLOCKS) if raw.isdigit() else 0
    blocks, problems = [], {}
    for i in range(count):
        kind = str(form.get(f"b{i}-type") or "")
        if kind not in FIELDS:
            continue
        block: dict = {"Type": kind}
        for name, field in FIELDS[kind].items():
            value = str(form.get(f"b{i}-{name}") or "").strip() if name != "text" else str(form.get(f"b{i}-{name}") or "")
            if name in NUMBERS:
                if value.isdigit() and len(value) < 6:
                    block[field] = int(value)
                else:
                    block[field] = value
                    problems[f"b{len(blocks)}-{name}"] = "Enter a whole number"
            elif name == "text":
                block[field] = value.replace("\r\n", "\n")
            else:
                block[field] = value
        blocks.append(block)
    return blocks, problems


def for_api(blocks: list[dict]) -> list[dict]:
    """The blocks as the pages system takes them: an image has one source, empty optional fields left out."""
    sent = []
    for block in blocks:
        block = dict(block)
        if block["Type"] == "image":
            if block.get("MediaId"):
                block.pop("Url", None)
            else:
                block.pop("MediaId", None)
            if not block.get("Alt"):
                block.pop("Alt", None)
        sent.append(block)
    return sent


def act(blocks: list[dict], action: str, kind: str = "") -> list[dict]:
    """``add`` (a new block of ``kind`` at the end), ``remove-<i>``, ``up-<i>``, ``down-<i>``."""
    blocks = list(blocks)
    name, _, index = action.partition("-")
    if name == "add":
        if kind in STARTERS and len(blocks) < MAX_BLOCKS:
            blocks.append(dict(STARTERS[kind]))
        return blocks
    if not index.isdigit() or int(index) >= len(blocks):
        return blocks
    i = int(index)
    if name == "remove":
        del blocks[i]
    elif name == "up" and i > 0:
        blocks[i - 1], blocks[i] = blocks[i], blocks[i - 1]
    elif name == "down" and i + 1 < len(blocks):
        blocks[i + 1], blocks[i] = blocks[i], blocks[i + 1]
    return blocks


def problems_of(details: Mapping[str, str], blocks: list[dict]) -> dict[str, str]:
    """The pages system's refusal beside each field: ``Blocks.1.button.Url`` -> ``b1-url``; a form or
    image the account lacks (named by id) beside the block that names it."""
    field_names = {kind: {api: name for name, api in fields.items()} for kind, fields in FIELDS.items()}
    found: dict[str, str] = {}
    for key, reason in details.items():
        match = PROBLEM.match(key)
        if match:
            i = int(match.group(1))
            kind = blocks[i]["Type"] if i < len(blocks) else ""
            name = field_names.get(kind, {}).get(match.group(2) or "") or next(iter(FIELDS.get(kind) or {"_": 0}))
            found[f"b{i}-{name}"] = _sentence(reason)
            continue
        for i, block in enumerate(blocks):
            if key in (block.get("FormId"), block.get("MediaId")):
                found[f"b{i}-{'form' if block['Type'] == 'form' else 'media'}"] = "This account has no such " + (
                    "form" if block["Type"] == "form" else "image")
    return found


def _sentence(reason: str) -> str:
    reason = str(reason).strip().rstrip(".")
    if "at least 1 character" in reason or reason == "required":
        return "This cannot be empty"
    return reason[:1].upper() + reason[1:] if reason else "Check this value"
