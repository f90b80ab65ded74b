from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.v1_senders_senders_response_200_domains_item_dns_status import V1SendersSendersResponse200DomainsItemDnsStatus
from typing import cast






T = TypeVar("T", bound="V1SendersSendersResponse200DomainsItem")



@_attrs_define
class V1SendersSendersResponse200DomainsItem:
    """ 
        Attributes:
            name (str): The domain.
            verified (bool): Whether it is verified.
            usable_for (list[str]): Where it may be the sender: `emails/send` (a Source of /v1/emails/send),
                `mail:/v1/emails` (the mail API).
            dns_status (V1SendersSendersResponse200DomainsItemDnsStatus): Whether its DNS records are in place.
     """

    name: str
    verified: bool
    usable_for: list[str]
    dns_status: V1SendersSendersResponse200DomainsItemDnsStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        verified = self.verified

        usable_for = self.usable_for



        dns_status = self.dns_status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Name": name,
            "Verified": verified,
            "UsableFor": usable_for,
            "DnsStatus": dns_status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("Name")

        verified = d.pop("Verified")

        usable_for = cast(list[str], d.pop("UsableFor"))


        dns_status = V1SendersSendersResponse200DomainsItemDnsStatus(d.pop("DnsStatus"))




        v1_senders_senders_response_200_domains_item = cls(
            name=name,
            verified=verified,
            usable_for=usable_for,
            dns_status=dns_status,
        )


        v1_senders_senders_response_200_domains_item.additional_properties = d
        return v1_senders_senders_response_200_domains_item

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
