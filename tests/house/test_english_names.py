"""Python names are English (docs/architecture.md): a name we choose (a module, class, function,
parameter, variable or attribute we assign) holds none of the Portuguese words of the contract.

What stays as the contract writes it is never a Python name we chose, so it is not looked at: string
literals (codes, paths, JSON keys, query names), keyword arguments at a call (a view's ``dict(nome=...)``
spells a JSON key; a parameter is checked where it is defined), attribute reads, the fields of request-body
schemas (``schemas.py``: a field is the JSON key it parses) and path parameters the contract names. The word list is
small and precise: words of the contract that are no English word.

Not yet looked at, for now: the files other branches own while this check is written
(:data:`OWNED_ELSEWHERE`); their names are renamed after those branches merge. :data:`PENDING` lists,
file by file, the names still to rename (names used by the files owned elsewhere); the list only shrinks: a name it holds that is gone fails the test too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.fixtures.harness import ROOT

ROOTS = ("app", "models", "kit", "herald", "providers", "tasks", "schedules")
OWNED_ELSEWHERE: tuple[str, ...] = ()

WORDS = frozenset("""
    antes ate alerta alertas anonimizado atributo atributos ativo ativa avaliado campo canais canal contato
    contatos convite convites criado criada dias descricao desafio destino destinos dominio dominios
    entrega entregas erro erros estado evento eventos formulario formularios gatilho inscrito
    integracao integracoes janela jornada jornadas limite lista listas mensagem metodo metrica midia
    midias minutos nao nivel nome motivo ocorrido pagina paginas papel passo passos pendentes periodo
    permitido produto propriedades recebe recusada regras remetente resumo segmento segmentos segredo
    senha sessao telefone tentativa tentativas tipo ultimo ultima valor variante versao verificacao
    indisponivel reenviar contagem externo
""".split())

# Path parameters spelled as the contract's paths spell them (Sanic passes a path parameter to the
# handler under the route's own name, and the OpenAPI document shows that name).
CONTRACT_PATH_PARAMETERS: dict[str, set[str]] = {
    "app/identity/authz/v1.py": {"produto"},  # /v1/tenants/{tenant_id}/acessos/{user_id}/{produto}
}

PENDING: dict[str, set[str]] = {}


def words_of(name: str) -> set[str]:
    return {part.lower() for part in re.split(r"_|(?<=[a-z])(?=[A-Z])", name) if part}


def body_fields(tree: ast.AST) -> set[int]:
    """The ids of the annotated names in the class bodies of a request-body schema module: the fields
    of a body spell the contract's JSON keys (``nome: str``), which stay as written."""
    return {id(statement.target) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
            for statement in node.body if isinstance(statement, ast.AnnAssign)}


def chosen_names(tree: ast.AST, *, schema_module: bool = False):
    """(name, line) of every name the module chooses: definitions, parameters, assigned names and
    attributes, import aliases (in a schemas.py module, not the fields of its bodies)."""
    fields = body_fields(tree) if schema_module else set()
    for node in ast.walk(tree):
        if id(node) in fields:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name, node.lineno
        elif isinstance(node, ast.arg):
            yield node.arg, node.lineno
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id, node.lineno
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            yield node.attr, node.lineno
        elif isinstance(node, ast.alias) and node.asname:
            yield node.asname, node.lineno


def portuguese_names() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for root in ROOTS:
        for path in sorted((ROOT / root).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(OWNED_ELSEWHERE):
                continue
            names = {part for part in path.relative_to(ROOT).with_suffix("").parts if words_of(part) & WORDS}
            tree = ast.parse(path.read_text(), relative)
            names |= {name for name, _ in chosen_names(tree, schema_module=path.name == "schemas.py")
                      if words_of(name) & WORDS}
            names -= CONTRACT_PATH_PARAMETERS.get(relative, set())
            if names:
                found[relative] = names
    return found


def test_the_word_list_finds_portuguese_names_and_spares_english_ones():
    tree = ast.parse("def reenviar(dias, limit):\n    remetente = nome = 1\n    return {'pendentes': limit}\n"
                     "x = dict(eventos=1)\nself_total = obj.eventos\n")
    flagged = {name for name, _ in chosen_names(tree) if words_of(name) & WORDS}
    assert flagged == {"reenviar", "dias", "remetente", "nome"}
    assert not words_of("settle_attempts") & WORDS and not words_of("validate_list") & WORDS


def test_a_body_schema_spells_json_keys_and_nothing_else_there():
    tree = ast.parse("class Body(SnakeBody):\n    nome: str\n\n    def limite_ok(self):\n        return 1\n"
                     "Metodo = int\n")
    flagged = {name for name, _ in chosen_names(tree, schema_module=True) if words_of(name) & WORDS}
    assert flagged == {"limite_ok", "Metodo"}


def test_python_names_are_english():
    found = portuguese_names()
    unexpected = {path: sorted(names - PENDING.get(path, set())) for path, names in found.items()
                  if names - PENDING.get(path, set())}
    assert not unexpected, f"Portuguese Python names (rename them to English): {unexpected}"
    gone = {path: sorted(names - found.get(path, set())) for path, names in PENDING.items()
            if names - found.get(path, set())}
    assert not gone, f"renamed already: take them off PENDING in this test: {gone}"
