from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="V1ProvidersListProvidersResponse200CatalogItemSecretsItem")



@_attrs_define
class V1ProvidersListProvidersResponse200CatalogItemSecretsItem:
    """ 
        Attributes:
            name (str | Unset): The setting's or secret's name.
            type_ (str | Unset): The setting's kind: `string`, `host`, `url`, `port`, `number` or `choice`.
            required (bool | Unset): Whether it must be given.
            choices (list[str] | Unset): The values it takes, when they are few.
     """

    name: str | Unset = UNSET
    type_: str | Unset = UNSET
    required: bool | Unset = UNSET
    choices: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        required = self.required

        choices: list[str] | Unset = UNSET
        if not isinstance(self.choices, Unset):
            choices = self.choices




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if name is not UNSET:
            field_dict["Name"] = name
        if type_ is not UNSET:
            field_dict["Type"] = type_
        if required is not UNSET:
            field_dict["Required"] = required
        if choices is not UNSET:
            field_dict["Choices"] = choices

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("Name", UNSET)

        type_ = d.pop("Type", UNSET)

        required = d.pop("Required", UNSET)

        choices = cast(list[str], d.pop("Choices", UNSET))


        v1_providers_list_providers_response_200_catalog_item_secrets_item = cls(
            name=name,
            type_=type_,
            required=required,
            choices=choices,
        )


        v1_providers_list_providers_response_200_catalog_item_secrets_item.additional_properties = d
        return v1_providers_list_providers_response_200_catalog_item_secrets_item

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
