from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_senders_senders_response_200_domains_item import V1SendersSendersResponse200DomainsItem
  from ..models.v1_senders_senders_response_200_mailboxes_item import V1SendersSendersResponse200MailboxesItem





T = TypeVar("T", bound="V1SendersSendersResponse200")



@_attrs_define
class V1SendersSendersResponse200:
    """ 
        Attributes:
            domains (list[V1SendersSendersResponse200DomainsItem]): The domains the account may send from (the sandbox
                domain for a test-mode key).
            mailboxes (list[V1SendersSendersResponse200MailboxesItem]): The mail API's mailboxes.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    domains: list[V1SendersSendersResponse200DomainsItem]
    mailboxes: list[V1SendersSendersResponse200MailboxesItem]
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_senders_senders_response_200_domains_item import V1SendersSendersResponse200DomainsItem # noqa: PLC0415
        from ..models.v1_senders_senders_response_200_mailboxes_item import V1SendersSendersResponse200MailboxesItem # noqa: PLC0415
        domains = []
        for domains_item_data in self.domains:
            domains_item = domains_item_data.to_dict()
            domains.append(domains_item)



        mailboxes = []
        for mailboxes_item_data in self.mailboxes:
            mailboxes_item = mailboxes_item_data.to_dict()
            mailboxes.append(mailboxes_item)



        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Domains": domains,
            "Mailboxes": mailboxes,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_senders_senders_response_200_domains_item import V1SendersSendersResponse200DomainsItem # noqa: PLC0415
        from ..models.v1_senders_senders_response_200_mailboxes_item import V1SendersSendersResponse200MailboxesItem # noqa: PLC0415
        d = dict(src_dict)
        domains = []
        _domains = d.pop("Domains")
        for domains_item_data in (_domains):
            domains_item = V1SendersSendersResponse200DomainsItem.from_dict(domains_item_data)



            domains.append(domains_item)


        mailboxes = []
        _mailboxes = d.pop("Mailboxes")
        for mailboxes_item_data in (_mailboxes):
            mailboxes_item = V1SendersSendersResponse200MailboxesItem.from_dict(mailboxes_item_data)



            mailboxes.append(mailboxes_item)


        request_id = d.pop("RequestId")

        v1_senders_senders_response_200 = cls(
            domains=domains,
            mailboxes=mailboxes,
            request_id=request_id,
        )


        v1_senders_senders_response_200.additional_properties = d
        return v1_senders_senders_response_200

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
