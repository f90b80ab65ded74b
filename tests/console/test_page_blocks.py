"""The editor's form <-> the pages system's blocks (app/console/page/blocks.py), without servers."""

from __future__ import annotations

from app.console.page import blocks


def form_of(*rows: dict) -> dict:
    form = {"blocks": str(len(rows))}
    for i, row in enumerate(rows):
        form.update({f"b{i}-{name}": value for name, value in row.items()})
    return form


def test_the_form_becomes_blocks_in_order_with_numbers_and_one_image_source():
    form = form_of({"type": "heading", "text": "Sale", "level": "1"}, {"type": "text", "text": "a\r\n\r\nb"},
                   {"type": "image", "media": "mid_1", "url": "https://x.example.com/a.png", "alt": ""},
                   {"type": "button", "label": "Go", "url": " #form ", "style": "secondary"},
                   {"type": "embed", "url": "https://e.example.com", "height": "300"}, {"type": "divider"},
                   {"type": "script", "text": "<script>"})
    found, problems = blocks.from_form(form)
    assert problems == {}
    assert found[0] == {"Type": "heading", "Text": "Sale", "Level": 1}
    assert found[1] == {"Type": "text", "Text": "a\n\nb"}
    assert found[3]["Url"] == "#form" and found[4]["Height"] == 300 and found[5] == {"Type": "divider"}
    assert len(found) == 6  # a type the pages system does not have is dropped
    assert blocks.for_api(found)[2] == {"Type": "image", "MediaId": "mid_1"}


def test_a_number_that_is_not_one_is_named_beside_its_field():
    found, problems = blocks.from_form(form_of({"type": "embed", "url": "https://e.example.com", "height": "tall"}))
    assert problems == {"b0-height": "Enter a whole number"} and found[0]["Height"] == "tall"


def test_add_remove_and_move():
    rows = [{"Type": "heading", "Text": "1"}, {"Type": "text", "Text": "2"}, {"Type": "divider"}]
    assert [row.get("Text") for row in blocks.act(rows, "up-1")] == ["2", "1", None]
    assert [row.get("Text") for row in blocks.act(rows, "down-1")] == ["1", None, "2"]
    assert [row.get("Text") for row in blocks.act(rows, "remove-0")] == ["2", None]
    assert blocks.act(rows, "up-0") == rows and blocks.act(rows, "down-2") == rows and blocks.act(rows, "remove-9") == rows
    assert blocks.act(rows, "add", "button")[-1] == {"Type": "button", "Label": "", "Url": "", "Style": "primary"}
    assert blocks.act(rows, "add", "nonsense") == rows


def test_the_pages_systems_refusals_land_beside_the_fields():
    rows = [{"Type": "heading", "Text": ""}, {"Type": "button", "Label": "Go", "Url": "ftp://x"},
            {"Type": "form", "FormId": "frm_missing"}]
    found = blocks.problems_of({"Blocks.0.heading.Text": "String should have at least 1 character",
                                "Blocks.1.button.Url": "must be an http:// or https:// URL",
                                "frm_missing": "no such form"}, rows)
    assert found == {"b0-text": "This cannot be empty", "b1-url": "Must be an http:// or https:// URL",
                     "b2-form": "This account has no such form"}
