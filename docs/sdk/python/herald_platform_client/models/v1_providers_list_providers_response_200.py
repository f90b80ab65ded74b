from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_providers_list_providers_response_200_catalog_item import V1ProvidersListProvidersResponse200CatalogItem
  from ..models.v1_providers_list_providers_response_200_providers_item import V1ProvidersListProvidersResponse200ProvidersItem





T = TypeVar("T", bound="V1ProvidersListProvidersResponse200")



@_attrs_define
class V1ProvidersListProvidersResponse200:
    """ 
        Attributes:
            providers (list[V1ProvidersListProvidersResponse200ProvidersItem]): The account's provider settings.
            catalog (list[V1ProvidersListProvidersResponse200CatalogItem]): What an account may set, per provider.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    providers: list[V1ProvidersListProvidersResponse200ProvidersItem]
    catalog: list[V1ProvidersListProvidersResponse200CatalogItem]
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_providers_list_providers_response_200_catalog_item import V1ProvidersListProvidersResponse200CatalogItem # noqa: PLC0415
        from ..models.v1_providers_list_providers_response_200_providers_item import V1ProvidersListProvidersResponse200ProvidersItem # noqa: PLC0415
        providers = []
        for providers_item_data in self.providers:
            providers_item = providers_item_data.to_dict()
            providers.append(providers_item)



        catalog = []
        for catalog_item_data in self.catalog:
            catalog_item = catalog_item_data.to_dict()
            catalog.append(catalog_item)



        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Providers": providers,
            "Catalog": catalog,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_providers_list_providers_response_200_catalog_item import V1ProvidersListProvidersResponse200CatalogItem # noqa: PLC0415
        from ..models.v1_providers_list_providers_response_200_providers_item import V1ProvidersListProvidersResponse200ProvidersItem # noqa: PLC0415
        d = dict(src_dict)
        providers = []
        _providers = d.pop("Providers")
        for providers_item_data in (_providers):
            providers_item = V1ProvidersListProvidersResponse200ProvidersItem.from_dict(providers_item_data)



            providers.append(providers_item)


        catalog = []
        _catalog = d.pop("Catalog")
        for catalog_item_data in (_catalog):
            catalog_item = V1ProvidersListProvidersResponse200CatalogItem.from_dict(catalog_item_data)



            catalog.append(catalog_item)


        request_id = d.pop("RequestId")

        v1_providers_list_providers_response_200 = cls(
            providers=providers,
            catalog=catalog,
            request_id=request_id,
        )


        v1_providers_list_providers_response_200.additional_properties = d
        return v1_providers_list_providers_response_200

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
