"""The X-Service-Signature verifiers that docs/webhooks.md gives for Node, Go and PHP, run as written
against requests signed by kit.webhooks: they accept what Herald signs (one secret, a rotation, a
secret of the old URL-safe shape) and refuse a stale timestamp, another secret and an altered body.

Each language runs when its toolchain is on the PATH (Node is on the project's machines; Go and PHP
are skipped where absent)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from kit.webhooks import new_secret, signed_headers

DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"
BODY = '{"EventId":"evt_1","EventType":"email.sent","Data":{"Subject":"Olá"}}'
OLD_SHAPE = "whsec_-_8Hs2x1bqYvZk3Q9tP0rW4uN6eLmC7aJdFgKiOyTzU"


def _block(marker: str) -> str:
    """The fenced code block of the doc that contains ``marker``."""
    for code in re.findall(r"```\w+\n(.*?)```", DOC.read_text(), re.S):
        if marker in code:
            return code
    raise AssertionError(f"docs/webhooks.md has no code block with {marker!r}")


def _cases() -> list[dict]:
    """(name, header, secrets the receiver holds, body, whether it must verify)."""
    now, current, previous = int(time.time()), new_secret(), new_secret()

    def header(secrets, at=now, body=BODY):
        return signed_headers(secrets, "evt_1", at, body.encode())["X-Service-Signature"]

    return [
        {"name": "one secret", "header": header(current), "secrets": [current], "body": BODY, "valid": True},
        {"name": "rotation, old secret", "header": header([current, previous]), "secrets": [previous],
         "body": BODY, "valid": True},
        {"name": "old-shape secret", "header": header(OLD_SHAPE), "secrets": [OLD_SHAPE], "body": BODY,
         "valid": True},
        {"name": "stale", "header": header(current, now - 301), "secrets": [current], "body": BODY, "valid": False},
        {"name": "another secret", "header": header(current), "secrets": [previous], "body": BODY, "valid": False},
        {"name": "altered body", "header": header(current), "secrets": [current], "body": BODY + " ",
         "valid": False},
        {"name": "two timestamps", "header": f"t={now},{header(current)}", "secrets": [current], "body": BODY,
         "valid": False},
    ]


def _run(argv: list[str], cwd: Path, cases: list[dict]) -> None:
    (cwd / "cases.json").write_text(json.dumps(cases))
    # The Go program has no dependency to fetch: GOPROXY=off keeps it from trying.
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=180,
                          env={**os.environ, "GOPROXY": "off", "GOFLAGS": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = done.stdout.split()
    assert verdicts == ["valid" if case["valid"] else "refused" for case in cases], \
        list(zip([case["name"] for case in cases], verdicts))


def _needs(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed here")


def test_the_node_verifier(tmp_path):
    _needs("node")
    (tmp_path / "verify.js").write_text(_block("function verifyHerald") + """
for (const c of require("./cases.json")) {
  let ok = true;
  try { verifyHerald(Buffer.from(c.body, "utf8"), c.header, c.secrets); } catch (err) { ok = false; }
  console.log(ok ? "valid" : "refused");
}
""")
    _run(["node", "verify.js"], tmp_path, _cases())


def test_the_go_verifier(tmp_path):
    _needs("go")
    (tmp_path / "heraldhooks").mkdir()
    (tmp_path / "heraldhooks" / "verify.go").write_text(_block("package heraldhooks"))
    (tmp_path / "go.mod").write_text("module check\n\ngo 1.18\n")
    (tmp_path / "main.go").write_text("""package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"check/heraldhooks"
)

func main() {
	raw, _ := os.ReadFile("cases.json")
	var cases []struct {
		Header  string   `json:"header"`
		Secrets []string `json:"secrets"`
		Body    string   `json:"body"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		panic(err)
	}
	for _, c := range cases {
		if heraldhooks.Verify([]byte(c.Body), c.Header, c.Secrets, 5*time.Minute) == nil {
			fmt.Println("valid")
		} else {
			fmt.Println("refused")
		}
	}
}
""")
    _run(["go", "run", "."], tmp_path, _cases())


def test_the_php_verifier(tmp_path):
    _needs("php")
    (tmp_path / "verify.php").write_text("<?php\n" + _block("function herald_verify") + """
foreach (json_decode(file_get_contents('cases.json'), true) as $c) {
    try { herald_verify($c['body'], $c['header'], $c['secrets']); echo "valid\\n"; }
    catch (UnexpectedValueException $e) { echo "refused\\n"; }
}
""")
    _run(["php", "verify.php"], tmp_path, _cases())
