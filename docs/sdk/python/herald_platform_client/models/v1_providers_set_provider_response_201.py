from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_providers_set_provider_response_201_provider import V1ProvidersSetProviderResponse201Provider





T = TypeVar("T", bound="V1ProvidersSetProviderResponse201")



@_attrs_define
class V1ProvidersSetProviderResponse201:
    """ 
        Attributes:
            provider (V1ProvidersSetProviderResponse201Provider): The provider setting.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    provider: V1ProvidersSetProviderResponse201Provider
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_providers_set_provider_response_201_provider import V1ProvidersSetProviderResponse201Provider # noqa: PLC0415
        provider = self.provider.to_dict()

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Provider": provider,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_providers_set_provider_response_201_provider import V1ProvidersSetProviderResponse201Provider # noqa: PLC0415
        d = dict(src_dict)
        provider = V1ProvidersSetProviderResponse201Provider.from_dict(d.pop("Provider"))




        request_id = d.pop("RequestId")

        v1_providers_set_provider_response_201 = cls(
            provider=provider,
            request_id=request_id,
        )


        v1_providers_set_provider_response_201.additional_properties = d
        return v1_providers_set_provider_response_201

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
