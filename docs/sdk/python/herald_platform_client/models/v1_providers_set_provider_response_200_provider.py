from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.v1_providers_set_provider_response_200_provider_channel import V1ProvidersSetProviderResponse200ProviderChannel
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.v1_providers_set_provider_response_200_provider_secrets import V1ProvidersSetProviderResponse200ProviderSecrets
  from ..models.v1_providers_set_provider_response_200_provider_settings import V1ProvidersSetProviderResponse200ProviderSettings





T = TypeVar("T", bound="V1ProvidersSetProviderResponse200Provider")



@_attrs_define
class V1ProvidersSetProviderResponse200Provider:
    """ The provider setting.

        Attributes:
            channel (V1ProvidersSetProviderResponse200ProviderChannel): The channel it sends on.
            key (str): The provider's key (`smtp`, `twilio`, `webpush` ...).
            settings (V1ProvidersSetProviderResponse200ProviderSettings): Its settings, in the clear.
            secrets (V1ProvidersSetProviderResponse200ProviderSecrets): Whether each secret is set (write-only: their values
                are never shown).
            settable (bool): False for a provider another screen manages (web push keys).
            created_at (datetime.datetime): When it was first set.
            updated_at (datetime.datetime): When it last changed.
     """

    channel: V1ProvidersSetProviderResponse200ProviderChannel
    key: str
    settings: V1ProvidersSetProviderResponse200ProviderSettings
    secrets: V1ProvidersSetProviderResponse200ProviderSecrets
    settable: bool
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_providers_set_provider_response_200_provider_secrets import V1ProvidersSetProviderResponse200ProviderSecrets # noqa: PLC0415
        from ..models.v1_providers_set_provider_response_200_provider_settings import V1ProvidersSetProviderResponse200ProviderSettings # noqa: PLC0415
        channel = self.channel.value

        key = self.key

        settings = self.settings.to_dict()

        secrets = self.secrets.to_dict()

        settable = self.settable

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Channel": channel,
            "Key": key,
            "Settings": settings,
            "Secrets": secrets,
            "Settable": settable,
            "CreatedAt": created_at,
            "UpdatedAt": updated_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_providers_set_provider_response_200_provider_secrets import V1ProvidersSetProviderResponse200ProviderSecrets # noqa: PLC0415
        from ..models.v1_providers_set_provider_response_200_provider_settings import V1ProvidersSetProviderResponse200ProviderSettings # noqa: PLC0415
        d = dict(src_dict)
        channel = V1ProvidersSetProviderResponse200ProviderChannel(d.pop("Channel"))




        key = d.pop("Key")

        settings = V1ProvidersSetProviderResponse200ProviderSettings.from_dict(d.pop("Settings"))




        secrets = V1ProvidersSetProviderResponse200ProviderSecrets.from_dict(d.pop("Secrets"))




        settable = d.pop("Settable")

        created_at = datetime.datetime.fromisoformat(d.pop("CreatedAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("UpdatedAt"))




        v1_providers_set_provider_response_200_provider = cls(
            channel=channel,
            key=key,
            settings=settings,
            secrets=secrets,
            settable=settable,
            created_at=created_at,
            updated_at=updated_at,
        )


        v1_providers_set_provider_response_200_provider.additional_properties = d
        return v1_providers_set_provider_response_200_provider

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
