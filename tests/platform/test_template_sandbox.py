"""The render budget of kit/sandbox.py and the render processes of kit/render_pool.py, called
directly: what amplifies is refused before it allocates, what is legitimate still renders, and a
render process past its deadline or its memory is replaced."""

from __future__ import annotations

import time

import pytest

from kit import render_pool
from kit.sandbox import MAX_STEPS, is_plain, render_parts


def kind_of(text: str, variables: dict | None = None, channel: str = "email", trial: bool = False) -> str:
    answer = render_parts(channel, {"Text": text}, variables or {}, trial)
    return "ok" if "ok" in answer else answer["error"]["kind"]


@pytest.mark.parametrize("text", [
    # the loop budget holds across nesting, inside macros and through calls
    "{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}",
    "{% for a in range(100) %}{% for b in range(100) %}{% for c in range(100) %}{% endfor %}{% endfor %}{% endfor %}",
    "{% macro m() %}{% for b in range(1000) %}{% endfor %}{% endmacro %}{% for a in range(1000) %}{{ m() }}{% endfor %}",
    "{% for a in range(1000) %}{% for b in range(1000) %}{{ 'x'.upper() }}{% endfor %}{% endfor %}",
    # filters and methods that widen, by their arguments
    "{{ 'x'|center(100000000) }}",
    "{{ 'x'.ljust(100000000) }}",
    "{{ 'abc'|indent(10000000, true) }}",
    "{{ ('x ' * 400000)|wordwrap(1, true, wrapstring='--------') }}",
    "{{ ('x ' * 400000)|wordwrap(1, true, '--------') }}",
    "{{ ('a' * 1000)|replace('a', 'b' * 100000) }}",
    "{{ ('a' * 1000).replace('a', 'b' * 100000) }}",
    "{{ (['x' * 100000] * 100)|join }}",
    "{{ '%0999999999d'|format(1) }}",
    "{{ '%*d'|format(999999999, 1) }}",
    "{{ '%0999999999d' % 1 }}",
    "{{ '{:>999999999}'.format(1) }}",
    # operators
    "{{ 'x' * 100000000 }}",
    "{{ ('x' * 900000) ~ ('y' * 900000) }}",
    "{{ ('x' * 900000) + ('y' * 900000) }}",
    "{{ range(1001)|length }}",
    "{{ 2 ** 65 }}",
    # captured output doubling in a loop
    "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s %}{{ ns.s }}{{ ns.s }}{% endset %}"
    "{% endfor %}",
])
def test_what_amplifies_is_refused_by_the_budget(text):
    started = time.monotonic()
    assert kind_of(text) == "budget"
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("text", [
    "{% for x in items recursive %}{{ loop(x) }}{% endfor %}",
    "{% macro m(n) %}{{ m(n) }}{% endmacro %}{{ m(1) }}",
    "{% macro a() %}{% call b() %}{% endcall %}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}",
    "{% include 'x' %}",
    "{% import 'x' as y %}",
    "{% from 'x' import y %}",
    "{% extends 'x' %}",
])
def test_unbounded_shapes_are_refused_when_parsed(text):
    assert kind_of(text) == "syntax"


def test_the_output_limit_is_the_channels():
    assert kind_of("{{ 'x' * 1601 }}", channel="sms") == "too_long"
    assert kind_of("{{ 'x' * 1600 }}", channel="sms") == "ok"
    assert kind_of("{{ 'x' * 4097 }}", channel="push") == "too_long"
    assert kind_of("{{ 'x' * 100000 }}", channel="email") == "ok"
    assert kind_of("{% for i in range(1000) %}{{ 'x' * 999 }}{% endfor %}{{ 'x' * 1001 }}", channel="email") == "too_long"


def test_legitimate_templates_still_render():
    variables = {"name": "ana", "items": [{"sku": "A1", "qty": 2, "price": 1234567.5}] * 20, "total": 12345678}
    text = ("{% macro line(item) %}{{ item.sku }} x{{ item.qty }} {{ '%.2f'|format(item.price) }}{% endmacro %}"
            "Hi {{ name|title }}, {{ '{:,}'.format(total) }} "
            "{% for item in items %}{{ line(item) }}{% if not loop.last %}; {% endif %}{% endfor %} "
            "{{ items|map(attribute='qty')|sum }} {{ 'a-b'|replace('-', '+') }} {{ ['a', 'b']|join(', ') }} "
            "{{ 'x'|center(9) }}|{{ 'long words here'|wordwrap(5) }}|{{ 'ab'|indent(2, true) }}|{{ '%1000.1000s' % 'x' }}")
    answer = render_parts("email", {"Text": text}, variables)
    assert "ok" in answer, answer
    out = answer["ok"]["Text"]
    assert out.startswith("Hi Ana, 12,345,678 A1 x2 1234567.50; ") and " 40 a+b a, b " in out
    # exactly the budget is allowed; one more step is not
    # 9 + 9 * 999 iterations and 10 calls of range: 9,010 steps
    assert MAX_STEPS == 10_000
    assert kind_of("{% for a in range(9) %}{% for b in range(999) %}{% endfor %}{% endfor %}") == "ok"
    assert kind_of("{% for a in range(10) %}{% for b in range(1000) %}{% endfor %}{% endfor %}") == "budget"


def test_a_trial_runs_with_empty_chainable_variables():
    assert kind_of("{{ user.name.first }}{% for x in items %}{{ x }}{% endfor %}{{ n|int + 1 }}", trial=True) == "ok"
    assert kind_of("{% for a in range(n|int) %}{% for b in range(1000) %}{% endfor %}{% endfor %}", trial=True) == "ok"
    assert kind_of("{% for a in range(1000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}",
                   trial=True) == "budget"


def test_captured_blocks_keep_their_meaning():
    answer = render_parts("email", {"Html": "{% set x %}<b>{{ v }}</b>{% endset %}{{ x }}{% set y | trim %} a {% endset %}"
                                            "[{{ y }}]"}, {"v": "<i>"})
    assert answer == {"ok": {"Html": "<b>&lt;i&gt;</b>[a]"}}


def test_plain_templates_are_told_apart():
    assert is_plain("Hi {{ name }} {% if account.vip %}VIP{% else %}{{ account.plan }}{% endif %}")
    assert not is_plain("{{ name|upper }}")
    assert not is_plain("{% for a in b %}{% endfor %}")
    assert not is_plain("{{ name * 3 }}")
    assert not is_plain("{{ name.upper() }}")


async def test_a_render_process_past_its_deadline_is_killed_and_replaced():
    pool = render_pool.RenderPool(size=1, deadline=1.0)
    slow = '{% set s = "ab cd " * 150000 %}{% for i in range(500) %}{{ s|wordwrap(40)|length }}{% endfor %}'
    try:
        assert await pool.render("render", "sms", {"Text": "Hi {{ n }}"}, {"n": 1}, False) == {"ok": {"Text": "Hi 1"}}
        started = time.monotonic()
        with pytest.raises(render_pool.RenderTimeout):
            await pool.render("render", "sms", {"Text": slow}, {}, False)
        assert time.monotonic() - started < 5
        assert pool.killed == 1
        assert await pool.render("render", "sms", {"Text": "Hi {{ n }}"}, {"n": 2}, False) == {"ok": {"Text": "Hi 2"}}
        assert pool.started == 2
    finally:
        await pool.aclose()


async def test_a_render_process_cannot_take_more_than_its_memory():
    pool = render_pool.RenderPool(size=1, deadline=20.0, memory_bytes=256 * 1024 * 1024)
    # Each item is under the value limit; together they are 600 MB.
    hungry = "{{ (['x'] * 600)|map('center', 999999)|list|length }}"
    try:
        answer = await pool.render("render", "email", {"Text": hungry}, {}, False)
        assert answer["error"]["kind"] == "budget" and "memory" in answer["error"]["reason"], answer
        assert await pool.render("render", "sms", {"Text": "ok"}, {}, False) == {"ok": {"Text": "ok"}}
    finally:
        await pool.aclose()


def test_the_source_is_bounded_in_tokens_and_its_variables_are_found():
    from kit.sandbox import MAX_TOKENS, inspect_parts, vet_parts

    assert inspect_parts({"Subject": "Hi {{ name }}", "Text": "{% for x in items %}{{ x }}{{ code }}{% endfor %}",
                          "Html": None}) == {"ok": ["code", "items", "name"]}
    answer = inspect_parts({"Html": "{{ a }}" * (MAX_TOKENS // 3 + 1)})
    assert answer["error"]["kind"] == "budget" and "tokens" in answer["error"]["reason"]
    assert inspect_parts({"Text": "{% include 'x' %}"})["error"]["kind"] == "unbounded"
    assert inspect_parts({"Text": "{{ x "})["error"]["kind"] == "syntax"
    assert vet_parts("sms", {"Text": "{{ 'x' * 2000 }}"})["error"]["kind"] == "too_long"
    assert vet_parts("sms", {"Text": "{{ user.name|upper }}"}) == {"ok": ["user"]}
