from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_suppressions_list_suppressions_response_200_suppressions_item import V1SuppressionsListSuppressionsResponse200SuppressionsItem





T = TypeVar("T", bound="V1SuppressionsListSuppressionsResponse200")



@_attrs_define
class V1SuppressionsListSuppressionsResponse200:
    """ 
        Attributes:
            suppressions (list[V1SuppressionsListSuppressionsResponse200SuppressionsItem]): The account's suppressions.
            next_cursor (None | str): Give it as `cursor` for the next page; null on the last one.
            has_more (bool): Whether there is a next page.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    suppressions: list[V1SuppressionsListSuppressionsResponse200SuppressionsItem]
    next_cursor: None | str
    has_more: bool
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_suppressions_list_suppressions_response_200_suppressions_item import V1SuppressionsListSuppressionsResponse200SuppressionsItem # noqa: PLC0415
        suppressions = []
        for suppressions_item_data in self.suppressions:
            suppressions_item = suppressions_item_data.to_dict()
            suppressions.append(suppressions_item)



        next_cursor: None | str
        next_cursor = self.next_cursor

        has_more = self.has_more

        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Suppressions": suppressions,
            "NextCursor": next_cursor,
            "HasMore": has_more,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_suppressions_list_suppressions_response_200_suppressions_item import V1SuppressionsListSuppressionsResponse200SuppressionsItem # noqa: PLC0415
        d = dict(src_dict)
        suppressions = []
        _suppressions = d.pop("Suppressions")
        for suppressions_item_data in (_suppressions):
            suppressions_item = V1SuppressionsListSuppressionsResponse200SuppressionsItem.from_dict(suppressions_item_data)



            suppressions.append(suppressions_item)


        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("NextCursor"))


        has_more = d.pop("HasMore")

        request_id = d.pop("RequestId")

        v1_suppressions_list_suppressions_response_200 = cls(
            suppressions=suppressions,
            next_cursor=next_cursor,
            has_more=has_more,
            request_id=request_id,
        )


        v1_suppressions_list_suppressions_response_200.additional_properties = d
        return v1_suppressions_list_suppressions_response_200

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
