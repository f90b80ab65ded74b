"""Request bodies of the authorization routes."""

from __future__ import annotations

from app.http.bodies import SnakeBody, example


class DecideBody(SnakeBody):
    model_config = example({"sub": "usr_8f14e45fceea167a5a36dedd", "tenant": "acc_8f14e45fceea167a5a36dedd",
                            "produto": "crm", "papel": "editor"})
    sub: str
    tenant: str
    produto: str
    papel: str | None = None
    # The identity session asking (ses_...): a session inside a support seat gets the seat's answer
    # (app/identity/support/service.py); without it, the user's own grants answer.
    sessao: str | None = None


class GrantBody(SnakeBody):
    model_config = example({"user_id": "usr_8f14e45fceea167a5a36dedd", "produto": "crm", "papel": "editor"})
    user_id: str
    produto: str
    papel: str


class SubscriptionBody(SnakeBody):
    model_config = example({"produto": "crm", "status": "ativo"})
    produto: str
    status: str
