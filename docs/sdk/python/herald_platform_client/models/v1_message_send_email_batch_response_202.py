from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.v1_message_send_email_batch_response_202_results_item_type_0 import V1MessageSendEmailBatchResponse202ResultsItemType0
  from ..models.v1_message_send_email_batch_response_202_results_item_type_1 import V1MessageSendEmailBatchResponse202ResultsItemType1





T = TypeVar("T", bound="V1MessageSendEmailBatchResponse202")



@_attrs_define
class V1MessageSendEmailBatchResponse202:
    """ 
        Attributes:
            count (int): How many items the batch had.
            results (list[V1MessageSendEmailBatchResponse202ResultsItemType0 |
                V1MessageSendEmailBatchResponse202ResultsItemType1]): One result per item, in order.
            request_id (str): This request's id (req_...), also in the X-Request-Id header.
     """

    count: int
    results: list[V1MessageSendEmailBatchResponse202ResultsItemType0 | V1MessageSendEmailBatchResponse202ResultsItemType1]
    request_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_0 import V1MessageSendEmailBatchResponse202ResultsItemType0 # noqa: PLC0415
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1 import V1MessageSendEmailBatchResponse202ResultsItemType1 # noqa: PLC0415
        count = self.count

        results = []
        for results_item_data in self.results:
            results_item: dict[str, Any]
            if isinstance(results_item_data, V1MessageSendEmailBatchResponse202ResultsItemType0):
                results_item = results_item_data.to_dict()
            else:
                results_item = results_item_data.to_dict()

            results.append(results_item)



        request_id = self.request_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "Count": count,
            "Results": results,
            "RequestId": request_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.v1_message_send_email_batch_response_202_results_item_type_0 import V1MessageSendEmailBatchResponse202ResultsItemType0 # noqa: PLC0415
        from ..models.v1_message_send_email_batch_response_202_results_item_type_1 import V1MessageSendEmailBatchResponse202ResultsItemType1 # noqa: PLC0415
        d = dict(src_dict)
        count = d.pop("Count")

        results = []
        _results = d.pop("Results")
        for results_item_data in (_results):
            def _parse_results_item(data: object) -> V1MessageSendEmailBatchResponse202ResultsItemType0 | V1MessageSendEmailBatchResponse202ResultsItemType1:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    results_item_type_0 = V1MessageSendEmailBatchResponse202ResultsItemType0.from_dict(data)



                    return results_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                results_item_type_1 = V1MessageSendEmailBatchResponse202ResultsItemType1.from_dict(data)



                return results_item_type_1

            results_item = _parse_results_item(results_item_data)

            results.append(results_item)


        request_id = d.pop("RequestId")

        v1_message_send_email_batch_response_202 = cls(
            count=count,
            results=results,
            request_id=request_id,
        )


        v1_message_send_email_batch_response_202.additional_properties = d
        return v1_message_send_email_batch_response_202

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
