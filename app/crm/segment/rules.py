"""The segment rule tree: its grammar, its validation (422 naming the node) and its compilation
to one parameterized SQL condition on ``contacts c``.

A node is exactly one of:

    {"todas": [node, ...]}                          every node holds (AND), 1 to 50 nodes
    {"qualquer": [node, ...]}                       at least one holds (OR), 1 to 50 nodes
    {"nao": node}                                   the node does not hold
    {"campo": "inscrito", "op": "igual", "valor": true|false}
    {"campo": "criado_em", "op": "antes"|"depois", "valor": "<RFC 3339>"}
    {"campo": "email"|"telefone"|"id_externo", "op": "existe"|"nao_existe"}
    {"campo": "email"|"telefone"|"id_externo", "op": "igual", "valor": "<text>"}   (exact, normalized)
    {"atributo": "<name>", "op": "existe"|"nao_existe"}
    {"atributo": "<name>", "op": "igual"|"diferente", "valor": <string|number|boolean>}
    {"atributo": "<name>", "op": "maior"|"menor", "valor": <number>}
    {"atributo": "<name>", "op": "contem", "valor": "<text>"}
    {"lista": "lst_<hex>", "membro": true|false}
    {"canal": "email"|"sms"|"push"|"whatsapp", "recebe": true|false}
    {"evento": "<name>", "tem": true|false, "dias": <1..3650>?}    has (or has not) an event of that
                                                                    name, within the last N days if given

At most MAX_DEPTH levels and MAX_NODES nodes. Every value travels as a query parameter, never as
SQL text; e-mail and phone compare through the blind index. Lists are resolved to the account's
own (a list of another account is "unknown", 422). Every parameter is a JSON value (a moment travels
as text and is cast in SQL), so a compiled condition can be stored and run later by a worker (the
journeys keep their branch conditions and segment triggers compiled, app/crm/journey).

The ``evento`` node is an EXISTS on contact_events served by its index (tenant, name, contact_id,
occurred_at).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tortoise.backends.base.client import BaseDBAsyncClient

from app.crm.contact.service import normalize_email, normalize_phone
from app.http import errors
from models.crm.consent import CHANNELS
from models.crm.contact import blind_indexes

MAX_DEPTH = 6
MAX_NODES = 100
MAX_CHILDREN = 50
KINDS = ("todas", "qualquer", "nao", "campo", "atributo", "lista", "canal", "evento")
MAX_EVENT_DAYS = 3650


def _invalid(path: str, reason: str) -> errors.Unprocessable:
    return errors.Unprocessable(f"regras{path}: {reason}.", details={f"regras{path}": reason})


class Compiler:
    """Compiles one tree for one account; ``params`` starts after the tenant ($1)."""

    def __init__(self, tenant: str, list_pks: dict[str, int]):
        self.tenant = tenant
        self.list_pks = list_pks
        self.params: list[Any] = [tenant]
        self.nodes = 0

    def param(self, value: Any) -> str:
        self.params.append(value)
        return f"${len(self.params)}"

    def compile(self, node: Any, path: str = "", depth: int = 1) -> str:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _invalid("", f"at most {MAX_NODES} nodes")
        if depth > MAX_DEPTH:
            raise _invalid(path, f"nested deeper than {MAX_DEPTH} levels")
        if not isinstance(node, dict):
            raise _invalid(path, "a node is a JSON object")
        kinds = [kind for kind in KINDS if kind in node]
        if len(kinds) != 1:
            raise _invalid(path, f"a node has exactly one of {', '.join(KINDS)}")
        kind = kinds[0]
        allowed = {"todas": {"todas"}, "qualquer": {"qualquer"}, "nao": {"nao"}, "campo": {"campo", "op", "valor"},
                   "atributo": {"atributo", "op", "valor"}, "lista": {"lista", "membro"},
                   "canal": {"canal", "recebe"}, "evento": {"evento", "tem", "dias"}}[kind]
        extra = sorted(set(node) - allowed)
        if extra:
            raise _invalid(f"{path}.{extra[0]}", "unknown key here")
        return COMPILERS[kind](self, node, path, depth)

    def _group(self, node: dict, path: str, depth: int, key: str, joiner: str) -> str:
        children = node[key]
        if not isinstance(children, list) or not 1 <= len(children) <= MAX_CHILDREN:
            raise _invalid(f"{path}.{key}", f"a list of 1 to {MAX_CHILDREN} nodes")
        return "(" + f" {joiner} ".join(self.compile(child, f"{path}.{key}[{i}]", depth + 1)
                                        for i, child in enumerate(children)) + ")"

    def _all_of(self, node: dict, path: str, depth: int) -> str:
        return self._group(node, path, depth, "todas", "AND")

    def _any_of(self, node: dict, path: str, depth: int) -> str:
        return self._group(node, path, depth, "qualquer", "OR")

    def _not(self, node: dict, path: str, depth: int) -> str:
        return f"(NOT {self.compile(node['nao'], f'{path}.nao', depth + 1)})"

    @staticmethod
    def _op(node: dict, path: str, ops: tuple[str, ...]) -> str:
        op = node.get("op")
        if op not in ops:
            raise _invalid(f"{path}.op", f"one of {', '.join(ops)}")
        if op in ("existe", "nao_existe") and "valor" in node:
            raise _invalid(f"{path}.valor", f"not taken by {op}")
        if op not in ("existe", "nao_existe") and "valor" not in node:
            raise _invalid(f"{path}.valor", "required")
        return op

    def _field(self, node: dict, path: str, depth: int) -> str:
        name, value = node["campo"], node.get("valor")
        if name == "inscrito":
            self._op(node, path, ("igual",))
            if not isinstance(value, bool):
                raise _invalid(f"{path}.valor", "a boolean")
            return f"c.subscribed = {self.param(value)}::boolean"
        if name == "criado_em":
            op = self._op(node, path, ("antes", "depois"))
            try:
                moment = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                raise _invalid(f"{path}.valor", "an RFC 3339 moment") from None
            if moment.tzinfo is None:
                raise _invalid(f"{path}.valor", "an RFC 3339 moment with its offset")
            return f"c.created_at {'<' if op == 'antes' else '>='} {self.param(moment.isoformat())}::text::timestamptz"
        columns = {"email": "c.email_index", "telefone": "c.phone_index", "id_externo": "c.external_id"}
        if name not in columns:
            raise _invalid(f"{path}.campo", "one of inscrito, criado_em, email, telefone, id_externo")
        op = self._op(node, path, ("existe", "nao_existe", "igual"))
        if op != "igual":
            return f"{columns[name]} IS {'NOT ' if op == 'existe' else ''}NULL"
        if not isinstance(value, str) or not value:
            raise _invalid(f"{path}.valor", "a non-empty text")
        try:
            # The index under any key of SECRET_KEY: rows written before a rotation keep an older one.
            if name == "email":
                indexes = blind_indexes(self.tenant, "email", normalize_email(value))
                return f"{columns[name]} = ANY({self.param(indexes)}::text[])"
            if name == "telefone":
                indexes = blind_indexes(self.tenant, "phone", normalize_phone(value))
                return f"{columns[name]} = ANY({self.param(indexes)}::text[])"
        except errors.HttpError as exc:
            raise _invalid(f"{path}.valor", exc.message.rstrip(".")) from None
        return f"{columns[name]} = {self.param(value)}::text"

    def _attribute(self, node: dict, path: str, depth: int) -> str:
        name, value = node["atributo"], node.get("valor")
        if not isinstance(name, str) or not 1 <= len(name) <= 64:
            raise _invalid(f"{path}.atributo", "a name of 1 to 64 characters")
        op = self._op(node, path, ("existe", "nao_existe", "igual", "diferente", "maior", "menor", "contem"))
        if op in ("igual", "diferente"):
            if not isinstance(value, (str, int, float, bool)):
                raise _invalid(f"{path}.valor", "a string, number or boolean")
            match = f"c.attributes @> {self.param(json.dumps({name: value}))}::jsonb"
            return match if op == "igual" else f"NOT ({match})"
        key = f"{self.param(name)}::text"
        if op in ("existe", "nao_existe"):
            return f"{'' if op == 'existe' else 'NOT '}jsonb_exists(c.attributes, {key})"
        if op in ("maior", "menor"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise _invalid(f"{path}.valor", "a number")
            sign = ">" if op == "maior" else "<"
            return (f"(CASE WHEN jsonb_typeof(c.attributes -> {key}) = 'number' "
                    f"THEN (c.attributes ->> {key})::numeric {sign} {self.param(str(value))}::text::numeric ELSE false END)")
        if not isinstance(value, str) or not value:
            raise _invalid(f"{path}.valor", "a non-empty text")
        return (f"(CASE WHEN jsonb_typeof(c.attributes -> {key}) = 'string' "
                f"THEN strpos(lower(c.attributes ->> {key}), lower({self.param(value)}::text)) > 0 ELSE false END)")

    def _list_member(self, node: dict, path: str, depth: int) -> str:
        list_id, member = node["lista"], node.get("membro", True)
        if not isinstance(member, bool):
            raise _invalid(f"{path}.membro", "a boolean")
        if list_id not in self.list_pks:
            raise _invalid(f"{path}.lista", "no list of this account has this id")
        exists = f"EXISTS (SELECT 1 FROM list_members m WHERE m.contact_id = c.id AND m.list_id = {self.param(self.list_pks[list_id])}::bigint)"
        return exists if member else f"NOT {exists}"

    def _channel(self, node: dict, path: str, depth: int) -> str:
        channel, receives = node["canal"], node.get("recebe", True)
        if channel not in CHANNELS:
            raise _invalid(f"{path}.canal", f"one of {', '.join(CHANNELS)}")
        if not isinstance(receives, bool):
            raise _invalid(f"{path}.recebe", "a boolean")
        exists = f"EXISTS (SELECT 1 FROM opt_outs o WHERE o.contact_id = c.id AND o.channel = {self.param(channel)}::text)"
        return f"NOT {exists}" if receives else exists

    def _event(self, node: dict, path: str, depth: int) -> str:
        name, has, days = node["evento"], node.get("tem", True), node.get("dias")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _invalid(f"{path}.evento", "an event name of 1 to 100 characters")
        if not isinstance(has, bool):
            raise _invalid(f"{path}.tem", "a boolean")
        if days is not None and (isinstance(days, bool) or not isinstance(days, int)
                                 or not 1 <= days <= MAX_EVENT_DAYS):
            raise _invalid(f"{path}.dias", f"an integer from 1 to {MAX_EVENT_DAYS}")
        within = "" if days is None else f" AND v.occurred_at >= now() - make_interval(days => {self.param(days)}::int)"
        exists = (f"EXISTS (SELECT 1 FROM contact_events v WHERE v.tenant = $1 AND v.name = {self.param(name)}::text "
                  f"AND v.contact_id = c.id{within})")
        return exists if has else f"NOT {exists}"


def _list_ids(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        if isinstance(node.get("lista"), str):
            found.add(node["lista"])
        for value in node.values():
            _list_ids(value, found)
    elif isinstance(node, list):
        for value in node:
            _list_ids(value, found)
    return found


async def compile_rules(conn: BaseDBAsyncClient, tenant: str, rules: Any) -> tuple[str, list[Any]]:
    """(the WHERE condition on ``contacts c`` of the account's live contacts, its parameters)."""
    wanted = sorted(_list_ids(rules, set()))[:MAX_NODES]
    rows = await conn.execute_query_dict(
        "SELECT id, public_id FROM contact_lists WHERE tenant = $1 AND public_id = ANY($2::text[])",
        [tenant, wanted]) if wanted else []
    compiler = Compiler(tenant, {row["public_id"]: row["id"] for row in rows})
    condition = compiler.compile(rules)
    return f"c.tenant = $1 AND c.anonymized_at IS NULL AND {condition}", compiler.params



# The kind of node, as the contract spells its key, to the method that compiles it.
COMPILERS = {"todas": Compiler._all_of, "qualquer": Compiler._any_of, "nao": Compiler._not, "campo": Compiler._field,
             "atributo": Compiler._attribute, "lista": Compiler._list_member, "canal": Compiler._channel,
             "evento": Compiler._event}
