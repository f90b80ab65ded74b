"""Regenerates the Python SDK in this folder (herald_platform_client/) from the platform's OpenAPI
document: ``make sdk`` (PLATFORM_URL, default http://127.0.0.1:8000, a running platform), or
``python docs/sdk/python/generate.py <url or file of an /openapi.json>``.

The SDK is for the public API: the document's ``/v1`` operations and the schemas they reach (the
dashboard's, the operators' and the meta routes stay in the document, not in the client). It is
generated with openapi-python-client (the ``sdk`` extra of setup.cfg); see docs/openapi.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PACKAGE = "herald_platform_client"
REF = "#/components/schemas/"


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        found = {ref[len(REF):]} if isinstance(ref, str) and ref.startswith(REF) else set()
        return found.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def public_api(document: dict[str, Any]) -> dict[str, Any]:
    """The document cut to its /v1 operations, with only the component schemas they reach."""
    paths = {path: item for path, item in document["paths"].items() if path.startswith("/v1/")}
    schemas = document["components"]["schemas"]
    reached, todo = set(), _refs(paths)
    while todo:  # schemas referring to schemas
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo |= _refs(schemas[name]) - reached
    used_tags = {tag for item in paths.values() for operation in item.values() for tag in operation.get("tags", ())}
    return {**document, "paths": paths, "tags": [tag for tag in document.get("tags", ()) if tag["name"] in used_tags],
            "components": {**document["components"],
                           "schemas": {name: schemas[name] for name in schemas if name in reached}}}


def load(source: str) -> dict[str, Any]:
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as answer:  # noqa: S310 - the operator's own URL
            return json.load(answer)
    return json.loads(Path(source).read_text())


def generate(document: dict[str, Any], output: Path = HERE / PACKAGE) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        cut = Path(scratch, "platform.json")
        cut.write_text(json.dumps(public_api(document), indent=1))
        # config.yml: no formatting hook, so the output is the generator's own, the same on every machine.
        subprocess.run([str(Path(sys.executable).with_name("openapi-python-client")), "generate", "--path", str(cut),
                        "--meta", "none", "--output-path", str(output), "--overwrite",
                        "--config", str(HERE / "config.yml")], check=True)


if __name__ == "__main__":
    generate(load(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/openapi.json"))
