"""The import's CSV file, read with the stdlib ``csv`` module and bounded: its size, its rows, its
columns and the length of a cell. A file that breaks a bound, is not UTF-8 text or has no usable
header is refused whole (422 naming what); a row that breaks one is refused alone (its line named).

Columns are matched by name, trimmed and case-insensitive: ``email`` (or ``e-mail``), ``telefone``
(``phone``), ``id_externo`` (``external_id``), ``nome`` (``name``) and ``atributos`` (a JSON object,
as the export writes it). The export's own columns that an import does not write (``id``,
``inscrito``, the dates) are ignored and named; any other column becomes an attribute of that name
(its text). An empty cell sets nothing. The delimiter is the header's most frequent of ``,`` ``;``
and tab (spreadsheets in many locales write ``;``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from app.http import errors

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_ROWS = 50_000
MAX_COLUMNS = 100
MAX_COLUMN_NAME = 64
MAX_CELL = 2_000

FIELDS = {"email": "email", "e-mail": "email", "telefone": "telefone", "phone": "telefone",
          "id_externo": "id_externo", "external_id": "id_externo", "nome": "nome", "name": "nome",
          "atributos": "atributos"}
IGNORED = frozenset({"id", "inscrito", "subscribed", "criado_em", "atualizado_em", "anonimizado_em"})


class RowProblem(errors.ValidationError):
    """A row the file's shape refuses (too many cells, a cell too long, atributos not an object)."""


def _refuse(reason: str, field: str = "arquivo") -> errors.Unprocessable:
    return errors.Unprocessable(reason, details={field: reason})


@dataclass(frozen=True)
class Header:
    columns: list[str]          # as the file spells them
    targets: list[str | None]   # per column: a contact field, "atributo:<name>", or None (ignored)
    delimiter: str

    @property
    def ignored(self) -> list[str]:
        return [name for name, target in zip(self.columns, self.targets) if target is None]


def decode(raw: bytes) -> str:
    if not raw.strip():
        raise _refuse("The file is empty: send a CSV with a header line and at least one row.")
    if len(raw) > MAX_FILE_BYTES:
        raise errors.PayloadTooLarge(MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _refuse(f"The file is not UTF-8 text (byte {exc.start + 1}); save it as CSV UTF-8.") from None
    if "\x00" in text:
        raise _refuse("The file holds NUL bytes: it is not a CSV text file.")
    return text


def _header(text: str) -> Header:
    first = text.split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=first.count)
    try:
        names = next(csv.reader(io.StringIO(first), delimiter=delimiter), [])
    except csv.Error as exc:
        raise _refuse(f"The header line is not valid CSV: {exc}.") from None
    names = [name.strip() for name in names]
    if not any(names):
        raise _refuse("The first line must name the columns (email, telefone, nome ...).")
    if len(names) > MAX_COLUMNS:
        raise _refuse(f"The file has {len(names)} columns; at most {MAX_COLUMNS}.")
    targets: list[str | None] = []
    seen: set[str] = set()
    for position, name in enumerate(names, 1):
        key = name.lower()
        if not name or len(name) > MAX_COLUMN_NAME:
            raise _refuse(f"Column {position} needs a name of 1 to {MAX_COLUMN_NAME} characters.")
        target = None if key in IGNORED else FIELDS.get(key, f"atributo:{name}")
        if target is not None and target in seen:
            raise _refuse(f"Column {name!r} repeats column {target.removeprefix('atributo:')!r}.")
        if target is not None:
            seen.add(target)
        targets.append(target)
    if not {"email", "telefone", "id_externo"} & seen:
        raise _refuse("The file needs a column email, telefone or id_externo: a contact is found by one of them.")
    return Header(names, targets, delimiter)


def _item(header: Header, cells: list[str]) -> dict[str, Any]:
    if len(cells) > len(header.columns):
        raise RowProblem(f"The row has {len(cells)} cells; the header names {len(header.columns)}.",
                         details={"linha": "more cells than columns"})
    item: dict[str, Any] = {}
    attributes: dict[str, Any] = {}
    for name, target, cell in zip(header.columns, header.targets, cells):
        if len(cell) > MAX_CELL:
            raise RowProblem(f"The cell of {name} has {len(cell)} characters; at most {MAX_CELL}.",
                             details={name: f"at most {MAX_CELL} characters"})
        value = cell.strip()
        if target is None or not value:
            continue
        if target == "atributos":
            try:
                found = json.loads(value)
            except ValueError:
                found = None
            if not isinstance(found, dict):
                raise RowProblem("atributos must be a JSON object.", details={"atributos": "a JSON object"})
            attributes = {**found, **attributes}
        elif target.startswith("atributo:"):
            attributes[target.removeprefix("atributo:")] = value
        else:
            item[target] = value
    if attributes:
        item["atributos"] = attributes
    return item


def rows(text: str) -> tuple[Header, Iterator[tuple[int, dict[str, Any] | RowProblem]]]:
    """The header and, lazily, each data row: (its line in the file, the bulk item or the problem)."""
    header = _header(text)

    def walk() -> Iterator[tuple[int, dict[str, Any] | RowProblem]]:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=header.delimiter)
        count = 0
        try:
            next(reader)
            for cells in reader:
                if not any(cell.strip() for cell in cells):
                    continue  # a blank line
                count += 1
                if count > MAX_ROWS:
                    raise _refuse(f"The file has more than {MAX_ROWS} rows; split it.")
                try:
                    yield reader.line_num, _item(header, cells)
                except RowProblem as problem:
                    yield reader.line_num, problem
        except csv.Error as exc:
            raise _refuse(f"Line {reader.line_num} is not valid CSV: {exc}.") from None

    return header, walk()
