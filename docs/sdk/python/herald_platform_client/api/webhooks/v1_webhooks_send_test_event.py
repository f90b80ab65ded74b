from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.test_event import TestEvent
from ...models.v1_webhooks_send_test_event_response_202 import V1WebhooksSendTestEventResponse202
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    webhook_id: str,
    *,
    body: TestEvent | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{webhook_id}/test".format(webhook_id=quote(str(webhook_id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1WebhooksSendTestEventResponse202:
    if response.status_code == 202:
        response_202 = V1WebhooksSendTestEventResponse202.from_dict(response.json())



        return response_202

    if response.status_code == 400:
        response_400 = PascalError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = PascalError.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1WebhooksSendTestEventResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEvent | Unset = UNSET,

) -> Response[PascalError | V1WebhooksSendTestEventResponse202]:
    """ Deliver a test event to a webhook endpoint (202: the delivery is queued)

     Deliver a test event to a webhook endpoint (202: the delivery is queued).

    Args:
        webhook_id (str):
        body (TestEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksSendTestEventResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEvent | Unset = UNSET,

) -> PascalError | V1WebhooksSendTestEventResponse202 | None:
    """ Deliver a test event to a webhook endpoint (202: the delivery is queued)

     Deliver a test event to a webhook endpoint (202: the delivery is queued).

    Args:
        webhook_id (str):
        body (TestEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksSendTestEventResponse202
     """


    return sync_detailed(
        webhook_id=webhook_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEvent | Unset = UNSET,

) -> Response[PascalError | V1WebhooksSendTestEventResponse202]:
    """ Deliver a test event to a webhook endpoint (202: the delivery is queued)

     Deliver a test event to a webhook endpoint (202: the delivery is queued).

    Args:
        webhook_id (str):
        body (TestEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksSendTestEventResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    body: TestEvent | Unset = UNSET,

) -> PascalError | V1WebhooksSendTestEventResponse202 | None:
    """ Deliver a test event to a webhook endpoint (202: the delivery is queued)

     Deliver a test event to a webhook endpoint (202: the delivery is queued).

    Args:
        webhook_id (str):
        body (TestEvent | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksSendTestEventResponse202
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
client=client,
body=body,

    )).parsed
