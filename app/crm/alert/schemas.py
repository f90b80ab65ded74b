"""Request bodies of the alert routes."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 4 * 1024
MAX_WINDOW_MINUTES = 31 * 24 * 60


class AlertCreate(SnakeBody):
    model_config = example({
        "nome": "Unsubscribes up",
        "metrica": "taxa_descadastro",
        "limite": 0.02,
        "janela_minutos": 60,
    })
    nome: str = Field(min_length=1, max_length=200)
    """The alert's name (1 to 200 characters)."""
    metrica: str
    """What it watches: `taxa_descadastro`, `queda_contatos`, `falhas_entrega` or `falhas_jornada` (docs/crm.md)."""
    limite: float = Field(ge=0)
    """The value (0 or more) over which it fires."""
    janela_minutos: int = Field(default=60, ge=5, le=MAX_WINDOW_MINUTES)
    """The window the metric is measured over, in minutes (5 to 44640, 60 by default)."""
    ativo: bool = True
    """Whether it is evaluated."""


class AlertPatch(SnakeBody):
    model_config = example({"limite": 0.05, "ativo": True})
    nome: str | None = Field(default=None, min_length=1, max_length=200)
    """A new name."""
    metrica: str | None = None
    """A new metric."""
    limite: float | None = Field(default=None, ge=0)
    """A new threshold (0 or more)."""
    janela_minutos: int | None = Field(default=None, ge=5, le=MAX_WINDOW_MINUTES)
    """A new window, in minutes (5 to 44640)."""
    ativo: bool | None = None
    """Whether it is evaluated."""
