"""Request bodies of the import routes (the file itself is multipart, read by the route)."""

from __future__ import annotations

from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 1024


class ImportStart(SnakeBody):
    """The consent answer, required: true when the file's people agreed to receive, false to import
    them unsubscribed (an opt-out history kept across a migration). Channel opt-outs are never changed."""

    model_config = example({"inscrito": False})
    inscrito: bool
    """True: the file's people agreed to receive; false: import them unsubscribed. No default."""
