"""The identity system: `sanic app.identity:create_app --factory`.

Cut by noun (session/, login/, password/, user/, twofactor/, passkey/, oauth/, client/, authz/,
signing_key/), each with its service (the rules, no Request) and its surface (v1.py). The app is
built in server.py, imported only when an app is wanted: importing a service never builds one.
"""

from __future__ import annotations


def create_app():
    from app.identity.server import build

    return build()
