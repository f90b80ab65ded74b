"""Request bodies of the authorization routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody, example


class DecideBody(SnakeBody):
    model_config = example({"sub": "usr_8f14e45fceea167a5a36dedd", "tenant": "acc_8f14e45fceea167a5a36dedd",
                            "produto": "crm", "papel": "editor"})
    sub: str
    """The user's id (`usr_...`)."""
    tenant: str
    """The account's id."""
    produto: str
    """The product's key (`crm`, `pages` ...)."""
    papel: str | None = None
    """The role asked for; any role of the product when absent."""
    sessao: str | None = None
    """The identity session asking (`ses_...`): a session inside a support seat gets the seat's answer
    (read-only access to the entered account); without it, the user's own grants answer."""


class GrantBody(SnakeBody):
    model_config = example({"user_id": "usr_8f14e45fceea167a5a36dedd", "produto": "crm", "papel": "editor"})
    user_id: str
    """The user's id (`usr_...`)."""
    produto: str
    """The product's key."""
    papel: str
    """The role, one the product declares."""


class SubscriptionBody(SnakeBody):
    model_config = example({"produto": "crm", "status": "ativo"})
    produto: str
    """The product's key."""
    status: str
    """`ativo`, `suspenso` or `cancelado`."""
