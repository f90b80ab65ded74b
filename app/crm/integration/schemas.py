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
    """The integration's name (1 to 200 characters)."""
    tipo: str
    """Where conversions go: `meta_capi` (Meta Conversions API) or `ga4` (GA4 Measurement Protocol)."""
    ativo: bool = True
    """Whether events are sent to it."""
    mapeamentos: dict[str, str] = Field(min_length=1, max_length=20)
    """CRM event type -> the conversion's event name on the ad platform (1 to 20)."""
    pixel_id: str | None = Field(default=None, max_length=32)
    """`meta_capi`: the Meta pixel (dataset) id."""
    access_token: str | None = Field(default=None, min_length=1, max_length=1024)
    """`meta_capi`: the Conversions API access token, sealed and never shown; left out on PUT keeps the current one."""
    test_event_code: str | None = Field(default=None, max_length=64)
    """`meta_capi`: Meta's test event code, so events show in its Test Events tab."""
    measurement_id: str | None = Field(default=None, max_length=32)
    """`ga4`: the GA4 measurement id (`G-...`)."""
    api_secret: str | None = Field(default=None, min_length=1, max_length=256)
    """`ga4`: the Measurement Protocol API secret, sealed and never shown; left out on PUT keeps the current one."""
