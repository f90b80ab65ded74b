from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_webhooks_get_webhook_response_200_webhook_health import V1WebhooksGetWebhookResponse200WebhookHealth





T = TypeVar("T", bound="V1WebhooksGetWebhookResponse200Webhook")



@_attrs_define
class V1WebhooksGetWebhookResponse200Webhook:
    """ The webhook endpoint.

        Attributes:
            id (str): The endpoint's id (`whk_...`).
            url (str): Where events are POSTed.
            description (None | str): Your note on the endpoint.
            event_types (list[str]): The event types delivered to it (`*`: all).
            enabled (bool): Whether events are delivered to it.
            mode (str): `live` or `test`: the mode of the keys whose events it receives.
            disabled_reason (None | str): Why Herald turned it off, when it did.
            disabled_at (None | str): When it was turned off (RFC 3339, to the millisecond).
            previous_secret_expires_at (None | str): While a rotation's overlap lasts, when the previous secret stops
                signing (RFC 3339, to the millisecond).
            health (V1WebhooksGetWebhookResponse200WebhookHealth): How deliveries to it are going.
            created_at (str): When it was added (RFC 3339, to the millisecond).
            updated_at (str): When it last changed (RFC 3339, to the millisecond).
     """

    id: str
    url: str
    description: None | str
    event_types: list[str]
    enabled: bool
    mode: str
    disabled_reason: None | str
    disabled_at: None | str
    previous_secret_expires_at: None | str
    health: V1WebhooksGetWebhookResponse200WebhookHealth
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_webhooks_get_webhook_response_200_webhook_health import V1WebhooksGetWebhookResponse200WebhookHealth # noqa: PLC0415
        id = self.id

        url = self.url

        description: None | str
        description = self.description

        event_types = self.event_types



        enabled = self.enabled

        mode = self.mode

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        disabled_at: None | str
        disabled_at = self.disabled_at

        previous_secret_expires_at: None | str
        previous_secret_expires_at = self.previous_secret_expires_at

        health = self.health.to_dict()

        created_at = self.created_at

        updated_at = self.updated_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Id": id,
            "Url": url,
            "Description": description,
            "EventTypes": event_types,
            "Enabled": enabled,
            "Mode": mode,
            "DisabledReason": disabled_reason,
            "DisabledAt": disabled_at,
            "PreviousSecretExpiresAt": previous_secret_expires_at,
            "Health": health,
            "CreatedAt": created_at,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_webhooks_get_webhook_response_200_webhook_health import V1WebhooksGetWebhookResponse200WebhookHealth # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("Id")

        url = d.pop("Url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("Description"))


        event_types = cast(list[str], d.pop("EventTypes"))


        enabled = d.pop("Enabled")

        mode = d.pop("Mode")

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("DisabledReason"))


        def _parse_disabled_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_at = _parse_disabled_at(d.pop("DisabledAt"))


        def _parse_previous_secret_expires_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("PreviousSecretExpiresAt"))


        health = V1WebhooksGetWebhookResponse200WebhookHealth.from_dict(d.pop("Health"))




        created_at = d.pop("CreatedAt")

        updated_at = d.pop("UpdatedAt")

        v1_webhooks_get_webhook_response_200_webhook = cls(
            id=id,
            url=url,
            description=description,
            event_types=event_types,
            enabled=enabled,
            mode=mode,
            disabled_reason=disabled_reason,
            disabled_at=disabled_at,
            previous_secret_expires_at=previous_secret_expires_at,
            health=health,
            created_at=created_at,
            updated_at=updated_at,
        )


        v1_webhooks_get_webhook_response_200_webhook.additional_properties = d
        return v1_webhooks_get_webhook_response_200_webhook

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
