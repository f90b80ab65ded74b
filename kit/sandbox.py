"""The Jinja2 sandbox message templates render in, with a budget that holds across nesting.

Jinja2's ``SandboxedEnvironment`` keeps a template away from Python's internals but not from the
CPU: loops nest without limit and filters such as ``center`` or ``replace`` allocate as much as they
are asked. Here a render gets a budget, counted the same way however deep it nests:

- **steps**: every iteration of every ``for`` loop and every call (a macro, a method, ``range``)
  spends one; more than MAX_STEPS in one render is refused. The parser wraps each loop's iterable
  in a counting filter (``_counted``), so a loop inside a loop inside a macro spends from the same
  budget as a loop at the top.
- **sizes**: no intermediate string or list above MAX_VALUE items (``*``, ``+``, ``~``, the filters
  and the ``str`` methods that widen, pad, replace, join or format are checked before they allocate
  where the size can be known, and after otherwise), and no rendered part above the channel's
  limit (OUTPUT_LIMITS: an SMS stops at 1600 characters instead of being built whole first).
- **size of the source**: at most MAX_TOKENS tokens a part, so that parsing and compiling it
  are bounded too (they run in the render process, checked at save by :func:`vet_parts`).
- **shapes refused when parsed**: recursive loops (``loop(...)``), macros that call themselves
  (directly or through each other), ``{% include %}``, ``{% import %}`` and ``{% extends %}``
  (a message template stands alone). They raise :class:`Unbounded`, a ``TemplateSyntaxError``.

What the budget cannot see (a filter's own CPU on a large value, a costly comparison) is stopped by
the hard deadline and memory cap of the render processes (:mod:`kit.render_pool`). This module
imports no layer: app/platform/template renders through it and maps its outcomes to the API's errors.
"""

from __future__ import annotations

import contextvars
import functools
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from jinja2 import ChainableUndefined, StrictUndefined, TemplateSyntaxError, UndefinedError, meta, nodes, pass_context
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.visitor import NodeTransformer

MAX_STEPS = 10_000
MAX_VALUE = 1_000_000
MAX_RANGE = 1000
# Tokens of one part: parsing and compiling cost about 20 us a token (700,000 tokens of ``{{ a }}``
# took 8 s to parse), a large legitimate HTML e-mail has a few thousand.
MAX_TOKENS = 20_000
# What a rendered part may hold: the largest legitimate body of the channel. E-mail keeps the 1 MB
# of its HTML; an SMS is at most 1600 characters (the contract); a push notification's payload is
# at most 4 KiB at APNs and FCM, so its title or body can never usefully exceed 4096 characters.
OUTPUT_LIMITS = {"email": MAX_VALUE, "sms": 1600, "push": 4096}

_UNDEFINED = re.compile(r"'([^']+)' is undefined")
_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\d*)(?:\.(\d+))?")
_BRACE_SPEC = re.compile(r"\{[^{}]*:([^{}]*)\}")
_WIDTH_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})


class BudgetExceeded(SecurityError):
    """A render spent more than its budget (steps or sizes)."""


class Unbounded(TemplateSyntaxError):
    """A template shape refused when parsed: its cost would not be bounded by the budget."""


@dataclass
class _Budget:
    steps: int = MAX_STEPS

    def spend(self) -> None:
        self.steps -= 1
        if self.steps < 0:
            raise BudgetExceeded(f"more than {MAX_STEPS} loop iterations and calls")


_BUDGET: contextvars.ContextVar[_Budget] = contextvars.ContextVar("herald_render_budget")


def _spend() -> None:
    budget = _BUDGET.get(None)
    if budget is None:  # a render outside render_parts (none in Herald) still gets its own budget
        budget = _Budget()
        _BUDGET.set(budget)
    budget.spend()


def _sized(value: Any) -> Any:
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_VALUE:
        raise BudgetExceeded(f"a value of more than {MAX_VALUE} items")
    return value


def _check_widths(template: str, spec: re.Pattern[str]) -> None:
    for found in spec.finditer(template):
        for number in (digits for group in found.groups() for digits in re.findall(r"\d+", group or "")):
            if len(number) > 7 or int(number) > MAX_VALUE:
                raise BudgetExceeded(f"a format width above {MAX_VALUE}")


def _check_str_call(text: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Before a ``str`` method runs: the size it would build, where it can be known."""
    if name in _WIDTH_METHODS:
        width = args[0] if args else next(iter(kwargs.values()), 0)
        if isinstance(width, int) and width > MAX_VALUE:
            raise BudgetExceeded(f"a width above {MAX_VALUE}")
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        _check_replace(text, args[0], args[1])
    elif name == "join" and args:
        _check_join(text, args[0])
    elif name in ("format", "format_map"):
        _check_widths(text, _BRACE_SPEC)


def _check_replace(text: str, old: str, new: str) -> None:
    hits = len(text) + 1 if old == "" else text.count(old)
    if len(text) + hits * max(len(new) - len(old), 0) > MAX_VALUE:
        raise BudgetExceeded(f"a replacement larger than {MAX_VALUE} characters")


def _check_join(separator: str, items: Any) -> None:
    if isinstance(items, (list, tuple)):
        size = len(separator) * len(items) + sum(len(item) if isinstance(item, str) else 16 for item in items)
        if size > MAX_VALUE:
            raise BudgetExceeded(f"a join larger than {MAX_VALUE} characters")


# --- the filters: the ones that widen checked before, every one's result checked after ---------------

def _before_filter(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    # args[0] is the value (after the context, for the filters that take one: none of these).
    value = args[0] if args else None
    rest = args[1:]
    if name == "center":
        width = rest[0] if rest else kwargs.get("width", 80)
        if isinstance(width, int) and width > MAX_VALUE:
            raise BudgetExceeded(f"a width above {MAX_VALUE}")
    elif name == "indent" and isinstance(value, str):
        width = rest[0] if rest else kwargs.get("width", 4)
        pad = len(width) if isinstance(width, str) else width if isinstance(width, int) else 0
        if len(value) + (value.count("\n") + 1) * pad > MAX_VALUE:
            raise BudgetExceeded(f"an indent larger than {MAX_VALUE} characters")
    elif name == "wordwrap" and isinstance(value, str):
        width = rest[0] if rest else kwargs.get("width", 79)
        # The arguments after the value: width, break_long_words, wrapstring.
        wrap = (rest[2] if len(rest) > 2 else kwargs.get("wrapstring")) or "\n"
        if isinstance(width, int) and isinstance(wrap, str) \
                and len(value) + (len(value) // max(width, 1) + 1) * len(wrap) > MAX_VALUE:
            raise BudgetExceeded(f"a wrap larger than {MAX_VALUE} characters")
    elif name == "replace" and isinstance(value, str) and len(rest) >= 2:
        _check_replace(value, str(rest[0]), str(rest[1]))
    elif name == "join" and value is not None:
        separator = rest[0] if rest else kwargs.get("d", "")
        _check_join(separator if isinstance(separator, str) else "", value)
    elif name == "format" and isinstance(value, str):
        _check_widths(value, _PERCENT_SPEC)
        # A ``*`` width or precision comes from the arguments: then no integer argument may be huge.
        if "*" in value and any(isinstance(arg, int) and arg > MAX_VALUE for arg in rest):
            raise BudgetExceeded(f"a format width above {MAX_VALUE}")


def _bounded_filter(name: str, filter_: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(filter_)  # keeps jinja_pass_arg: the filter still gets its context
    def bounded(*args: Any, **kwargs: Any) -> Any:
        passed = getattr(filter_, "jinja_pass_arg", None)
        _before_filter(name, args[1:] if passed is not None else args, kwargs)
        return _sized(filter_(*args, **kwargs))
    return bounded


@pass_context
def _counted(context: Any, iterable: Iterable[Any]) -> Iterator[Any]:
    """Every ``for`` loop's iterable goes through here (the parser puts it there): one step per item."""
    for item in iterable:
        _spend()
        yield item


@pass_context
def _bounded(context: Any, value: Any) -> Any:
    """Every ``~`` concatenation's result goes through here."""
    return _sized(value)


def _range(*args: int) -> range:
    """``range`` in templates, at most MAX_RANGE items (Jinja2's own cap is 100,000)."""
    found = range(*args)
    if len(found) > MAX_RANGE:
        raise BudgetExceeded(f"a range of more than {MAX_RANGE} items")
    return found


# --- the parse: refuse what the budget cannot bound, route loops and concatenations through it ---------

class _Budgeted(NodeTransformer):
    def __init__(self, name: str | None) -> None:
        self.name = name

    def _refuse(self, message: str, node: nodes.Node) -> None:
        raise Unbounded(message, node.lineno, self.name)

    def visit_For(self, node: nodes.For) -> nodes.Node:
        if node.recursive:
            self._refuse("recursive loops are not allowed in a message template", node)
        self.generic_visit(node)
        node.iter = nodes.Filter(node.iter, "_counted", [], [], None, None, lineno=node.lineno)
        return node

    def visit_AssignBlock(self, node: nodes.AssignBlock) -> nodes.Node:
        # ``{% set x %}...{% endset %}`` captures output into a value: sized like ``~`` (its filter,
        # if any, applies to the captured text first).
        self.generic_visit(node)
        node.filter = nodes.Filter(node.filter, "_bounded", [], [], None, None, lineno=node.lineno)
        return node

    def visit_Concat(self, node: nodes.Concat) -> nodes.Node:
        self.generic_visit(node)
        return nodes.Filter(node, "_bounded", [], [], None, None, lineno=node.lineno)

    def visit_Include(self, node: nodes.Node) -> None:
        self._refuse("include is not allowed in a message template", node)

    def visit_Import(self, node: nodes.Node) -> None:
        self._refuse("import is not allowed in a message template", node)

    visit_FromImport = visit_Import

    def visit_Extends(self, node: nodes.Node) -> None:
        self._refuse("extends is not allowed in a message template", node)


def _refuse_recursive_macros(tree: nodes.Template, name: str | None) -> None:
    """A macro may not reach itself through the macros it calls (a macro called by name)."""
    macros = {macro.name: macro for macro in tree.find_all(nodes.Macro)}
    calls = {macro_name: {call.node.name for call in macro.find_all(nodes.Call)
                          if isinstance(call.node, nodes.Name) and call.node.name in macros}
             for macro_name, macro in macros.items()}
    for start, macro in macros.items():
        seen, todo = set(), list(calls[start])
        while todo:
            current = todo.pop()
            if current == start:
                raise Unbounded(f"the macro {start!r} calls itself", macro.lineno, name)
            if current not in seen:
                seen.add(current)
                todo.extend(calls[current])


class _Sandbox(ImmutableSandboxedEnvironment):
    """The sandbox, immutable (no ``list.append`` to grow a value in a loop), with the budget."""

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.filters = {name: _bounded_filter(name, filter_) for name, filter_ in self.filters.items()}
        self.filters["_counted"] = _counted
        self.filters["_bounded"] = _bounded
        self.globals["range"] = _range

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        _refuse_recursive_macros(tree, name)
        return _Budgeted(name).visit(tree)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "*":
            for sequence, times in ((left, right), (right, left)):
                if isinstance(sequence, (str, list, tuple)) and isinstance(times, int) \
                        and len(sequence) * max(times, 0) > MAX_VALUE:
                    raise BudgetExceeded(f"a repetition larger than {MAX_VALUE} items")
        elif operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise BudgetExceeded("an exponent above 64")
        elif operator == "+" and isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
            if len(left) + len(right) > MAX_VALUE:
                raise BudgetExceeded(f"a value of more than {MAX_VALUE} items")
        elif operator == "%" and isinstance(left, str):
            _check_widths(left, _PERCENT_SPEC)
        return _sized(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (Jinja's shape)
        _spend()
        # str.format arrives wrapped by the sandbox (its __wrapped__ is the bound method).
        method = getattr(__obj, "__wrapped__", __obj)
        owner = getattr(method, "__self__", None)
        if isinstance(owner, str):
            _check_str_call(owner, getattr(method, "__name__", ""), args, kwargs)
        return _sized(super().call(__context, __obj, *args, **kwargs))


TEXT = _Sandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=True)
HTML = _Sandbox(undefined=StrictUndefined, autoescape=True, keep_trailing_newline=True)


class _TrialUndefined(ChainableUndefined):
    """The save-time trial's variable: empty, chainable (``user.name`` is empty too), iterable (no
    items) and zero as a number, so what the trial measures is the template's own cost, not
    whether sample values fit it."""

    def __int__(self) -> int:
        return 0

    def __float__(self) -> float:
        return 0.0


_TRIAL_TEXT = _Sandbox(undefined=_TrialUndefined, autoescape=False, keep_trailing_newline=True)
_TRIAL_HTML = _Sandbox(undefined=_TrialUndefined, autoescape=True, keep_trailing_newline=True)


def environment(part: str, trial: bool = False) -> _Sandbox:
    if trial:
        return _TRIAL_HTML if part == "Html" else _TRIAL_TEXT
    return HTML if part == "Html" else TEXT


@functools.lru_cache(maxsize=64)
def _compiled(part: str, trial: bool, text: str) -> Any:
    # A render process keeps the last templates it compiled: compiling a large HTML costs more than
    # rendering it.
    return environment(part, trial).from_string(text)


# Node types whose render costs no more than the size of what it prints: a template made only of
# them needs no budget and no render process (see is_plain).
_PLAIN = (nodes.Template, nodes.Output, nodes.TemplateData, nodes.Const, nodes.Name, nodes.Getattr,
          nodes.Getitem, nodes.If, nodes.Compare, nodes.Operand, nodes.Not, nodes.And, nodes.Or)


@functools.lru_cache(maxsize=256)
def is_plain(text: str) -> bool:
    """Whether the template only prints text, variables and their attributes, maybe under ``if``:
    no loop, call, filter or operator; its render is linear in its input and output."""
    try:
        tree = TEXT.parse(text)
    except TemplateSyntaxError:
        return False
    return all(isinstance(node, _PLAIN) for node in tree.find_all(nodes.Node))


def render_parts(channel: str, parts: dict[str, str | None], variables: dict[str, Any],
                 trial: bool = False) -> dict[str, Any]:
    """Render every part under one budget. Plain data out (it crosses a process boundary):
    ``{"ok": {part: text}}`` or ``{"error": {"kind", "part", "reason"}}`` with ``kind`` one of
    ``missing`` (reason: the variable), ``syntax``, ``budget``, ``too_long``, ``refused`` (the
    sandbox), ``failed`` (the template's own error with these variables)."""
    _BUDGET.set(_Budget())
    limit = OUTPUT_LIMITS.get(channel, MAX_VALUE)
    out: dict[str, str | None] = {}
    for part, text in parts.items():
        if not text:
            out[part] = text
            continue
        try:
            pieces, size = [], 0
            for piece in _compiled(part, trial, text).generate(**variables):
                size += len(piece)
                if size > limit:
                    return _error("too_long", part, str(limit))
                pieces.append(piece)
            out[part] = "".join(pieces)
        except UndefinedError as error:
            found = _UNDEFINED.search(str(error.message or ""))
            return _error("missing", part, found.group(1) if found else "?")
        except BudgetExceeded as error:
            return _error("budget", part, str(error))
        except SecurityError as error:
            return _error("refused", part, str(error))
        except TemplateSyntaxError as error:
            return _error("syntax", part, f"{error.message} (line {error.lineno})")
        except MemoryError:
            return _error("budget", part, "more memory than a render may use")
        except RecursionError:
            return _error("budget", part, "calls nested too deep")
        except Exception as error:  # noqa: BLE001 - the template's own failure, reported with its type
            return _error("failed", part, type(error).__name__)
    return {"ok": out}


def inspect_parts(parts: dict[str, str | None]) -> dict[str, Any]:
    """The variables the parts use: ``{"ok": [names]}`` (sorted), or ``{"error": ...}`` with kind
    ``syntax``, ``unbounded`` (a shape :class:`Unbounded` refuses) or ``budget`` (too many tokens)."""
    names: set[str] = set()
    for part, text in parts.items():
        if not text:
            continue
        environment_ = environment(part)
        try:
            for count, _ in enumerate(environment_.lex(text), start=1):
                if count > MAX_TOKENS:
                    return _error("budget", part, f"more than {MAX_TOKENS} template tokens")
            names |= meta.find_undeclared_variables(environment_.parse(text))
        except TemplateSyntaxError as error:
            kind = "unbounded" if isinstance(error, Unbounded) else "syntax"
            return _error(kind, part, f"{error.message} (line {error.lineno})")
    return {"ok": sorted(names)}


def vet_parts(channel: str, parts: dict[str, str | None]) -> dict[str, Any]:
    """At save: :func:`inspect_parts`, then a trial render with empty variables whose overrun of the
    budget or the output limit refuses the template (its other failures wait for a real send)."""
    inspected = inspect_parts(parts)
    if "error" in inspected:
        return inspected
    trial = render_parts(channel, parts, {}, trial=True)
    if "error" in trial and trial["error"]["kind"] in ("budget", "too_long"):
        return trial
    return inspected


JOBS = {"render": render_parts, "vet": vet_parts, "inspect": inspect_parts}


def _error(kind: str, part: str, reason: str) -> dict[str, Any]:
    return {"error": {"kind": kind, "part": part, "reason": reason}}
