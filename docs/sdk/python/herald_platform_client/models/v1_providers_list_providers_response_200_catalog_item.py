from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_providers_list_providers_response_200_catalog_item_secrets_item import V1ProvidersListProvidersResponse200CatalogItemSecretsItem
  from ..models.v1_providers_list_providers_response_200_catalog_item_settings_item import V1ProvidersListProvidersResponse200CatalogItemSettingsItem





T = TypeVar("T", bound="V1ProvidersListProvidersResponse200CatalogItem")



@_attrs_define
class V1ProvidersListProvidersResponse200CatalogItem:
    """ 
        Attributes:
            channel (str): The channel it sends on.
            key (str): The provider's key (`smtp`, `twilio`, `webpush` ...).
            settings (list[V1ProvidersListProvidersResponse200CatalogItemSettingsItem]): The settings it takes.
            secrets (list[V1ProvidersListProvidersResponse200CatalogItemSecretsItem]): The secrets it takes.
     """

    channel: str
    key: str
    settings: list[V1ProvidersListProvidersResponse200CatalogItemSettingsItem]
    secrets: list[V1ProvidersListProvidersResponse200CatalogItemSecretsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_providers_list_providers_response_200_catalog_item_secrets_item import V1ProvidersListProvidersResponse200CatalogItemSecretsItem # noqa: PLC0415
        from ..models.v1_providers_list_providers_response_200_catalog_item_settings_item import V1ProvidersListProvidersResponse200CatalogItemSettingsItem # noqa: PLC0415
        channel = self.channel

        key = self.key

        settings = []
        for settings_item_data in self.settings:
            settings_item = settings_item_data.to_dict()
            settings.append(settings_item)



        secrets = []
        for secrets_item_data in self.secrets:
            secrets_item = secrets_item_data.to_dict()
            secrets.append(secrets_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Channel": channel,
            "Key": key,
            "Settings": settings,
            "Secrets": secrets,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_providers_list_providers_response_200_catalog_item_secrets_item import V1ProvidersListProvidersResponse200CatalogItemSecretsItem # noqa: PLC0415
        from ..models.v1_providers_list_providers_response_200_catalog_item_settings_item import V1ProvidersListProvidersResponse200CatalogItemSettingsItem # noqa: PLC0415
        d = dict(src_dict)
        channel = d.pop("Channel")

        key = d.pop("Key")

        settings = []
        _settings = d.pop("Settings")
        for settings_item_data in (_settings):
            settings_item = V1ProvidersListProvidersResponse200CatalogItemSettingsItem.from_dict(settings_item_data)



            settings.append(settings_item)


        secrets = []
        _secrets = d.pop("Secrets")
        for secrets_item_data in (_secrets):
            secrets_item = V1ProvidersListProvidersResponse200CatalogItemSecretsItem.from_dict(secrets_item_data)



            secrets.append(secrets_item)


        v1_providers_list_providers_response_200_catalog_item = cls(
            channel=channel,
            key=key,
            settings=settings,
            secrets=secrets,
        )


        v1_providers_list_providers_response_200_catalog_item.additional_properties = d
        return v1_providers_list_providers_response_200_catalog_item

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
