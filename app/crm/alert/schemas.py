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
    metrica: str
    limite: float = Field(ge=0)
    janela_minutos: int = Field(default=60, ge=5, le=MAX_WINDOW_MINUTES)
    ativo: bool = True


class AlertPatch(SnakeBody):
    model_config = example({"limite": 0.05, "ativo": True})
    nome: str | None = Field(default=None, min_length=1, max_length=200)
    metrica: str | None = None
    limite: float | None = Field(default=None, ge=0)
    janela_minutos: int | None = Field(default=None, ge=5, le=MAX_WINDOW_MINUTES)
    ativo: bool | None = None
