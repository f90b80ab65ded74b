"""Request body of the conversion integration routes (POST creates, PUT replaces the configuration)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 8 * 1024


class IntegrationWrite(SnakeBody):
    model_config = example({
        "nome": "Meta Ads",
        "tipo": "meta_capi",
        "mapeamentos": {"contact.created": "Lead"},
        "pixel_id": "123456789012345",
        "access_token": "EAAB-your-conversions-api-token",
    })
    nome: str = Field(min_length=1, max_length=200)
    tipo: str  # meta_capi | ga4
    ativo: bool = True
    # CRM event type -> the conversion's event name on the ad platform.
    mapeamentos: dict[str, str] = Field(min_length=1, max_length=20)
    # meta_capi
    pixel_id: str | None = Field(default=None, max_length=32)
    access_token: str | None = Field(default=None, min_length=1, max_length=1024)
    test_event_code: str | None = Field(default=None, max_length=64)
    # ga4
    measurement_id: str | None = Field(default=None, max_length=32)
    api_secret: str | None = Field(default=None, min_length=1, max_length=256)
