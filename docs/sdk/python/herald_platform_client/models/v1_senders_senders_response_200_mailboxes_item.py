from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="V1SendersSendersResponse200MailboxesItem")



@_attrs_define
class V1SendersSendersResponse200MailboxesItem:
    """ 
        Attributes:
            address (str): The mailbox's address.
            usable_for (list[str]): Where it may be the sender: `emails/send` (a Source of /v1/emails/send),
                `mail:/v1/emails` (the mail API).
     """

    address: str
    usable_for: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        address = self.address

        usable_for = self.usable_for




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Address": address,
            "UsableFor": usable_for,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("Address")

        usable_for = cast(list[str], d.pop("UsableFor"))


        v1_senders_senders_response_200_mailboxes_item = cls(
            address=address,
            usable_for=usable_for,
        )


        v1_senders_senders_response_200_mailboxes_item.additional_properties = d
        return v1_senders_senders_response_200_mailboxes_item

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
