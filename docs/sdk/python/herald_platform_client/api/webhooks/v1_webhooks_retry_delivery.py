from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_webhooks_retry_delivery_response_202 import V1WebhooksRetryDeliveryResponse202
from typing import cast



def _get_kwargs(
    webhook_id: str,
    delivery_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry".format(webhook_id=quote(str(webhook_id), safe=""),delivery_id=quote(str(delivery_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1WebhooksRetryDeliveryResponse202:
    if response.status_code == 202:
        response_202 = V1WebhooksRetryDeliveryResponse202.from_dict(response.json())



        return response_202

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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1WebhooksRetryDeliveryResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1WebhooksRetryDeliveryResponse202]:
    """ Deliver a webhook delivery again now (202: the attempt is queued)

     Deliver a webhook delivery again now (202: the attempt is queued).

    Args:
        webhook_id (str):
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksRetryDeliveryResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
delivery_id=delivery_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1WebhooksRetryDeliveryResponse202 | None:
    """ Deliver a webhook delivery again now (202: the attempt is queued)

     Deliver a webhook delivery again now (202: the attempt is queued).

    Args:
        webhook_id (str):
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksRetryDeliveryResponse202
     """


    return sync_detailed(
        webhook_id=webhook_id,
delivery_id=delivery_id,
client=client,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1WebhooksRetryDeliveryResponse202]:
    """ Deliver a webhook delivery again now (202: the attempt is queued)

     Deliver a webhook delivery again now (202: the attempt is queued).

    Args:
        webhook_id (str):
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksRetryDeliveryResponse202]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
delivery_id=delivery_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1WebhooksRetryDeliveryResponse202 | None:
    """ Deliver a webhook delivery again now (202: the attempt is queued)

     Deliver a webhook delivery again now (202: the attempt is queued).

    Args:
        webhook_id (str):
        delivery_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksRetryDeliveryResponse202
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
delivery_id=delivery_id,
client=client,

    )).parsed
