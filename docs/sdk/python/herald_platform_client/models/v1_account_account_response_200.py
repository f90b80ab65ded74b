from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="V1AccountAccountResponse200")



@_attrs_define
class V1AccountAccountResponse200:
    """ 
        Attributes:
            tenant_id (str): The account's id (`acc_...`).
            name (str): The account's name.
            plan (str): The account's plan.
            status (str): The account's status (`active` ...).
            api_key_id (str): The id of the key that made this request (`key_...`).
            api_key_scope (str): That key's scopes, comma-separated.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    tenant_id: str
    name: str
    plan: str
    status: str
    api_key_id: str
    api_key_scope: str
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        tenant_id = self.tenant_id

        name = self.name

        plan = self.plan

        status = self.status

        api_key_id = self.api_key_id

        api_key_scope = self.api_key_scope

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "TenantId": tenant_id,
            "Name": name,
            "Plan": plan,
            "Status": status,
            "ApiKeyId": api_key_id,
            "ApiKeyScope": api_key_scope,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_id = d.pop("TenantId")

        name = d.pop("Name")

        plan = d.pop("Plan")

        status = d.pop("Status")

        api_key_id = d.pop("ApiKeyId")

        api_key_scope = d.pop("ApiKeyScope")

        request_id = d.pop("RequestId")

        v1_account_account_response_200 = cls(
            tenant_id=tenant_id,
            name=name,
            plan=plan,
            status=status,
            api_key_id=api_key_id,
            api_key_scope=api_key_scope,
            request_id=request_id,
        )


        v1_account_account_response_200.additional_properties = d
        return v1_account_account_response_200

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
