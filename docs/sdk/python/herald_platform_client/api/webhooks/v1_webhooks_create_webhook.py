from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_webhooks_create_webhook_response_201 import V1WebhooksCreateWebhookResponse201
from ...models.webhook_create import WebhookCreate
from typing import cast



def _get_kwargs(
    *,
    body: WebhookCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1WebhooksCreateWebhookResponse201:
    if response.status_code == 201:
        response_201 = V1WebhooksCreateWebhookResponse201.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = PascalError.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = PascalError.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = PascalError.from_dict(response.json())



        return response_403

    if response.status_code == 429:
        response_429 = PascalError.from_dict(response.json())



        return response_429

    response_default = PascalError.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1WebhooksCreateWebhookResponse201]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,

) -> Response[PascalError | V1WebhooksCreateWebhookResponse201]:
    """ Add a webhook endpoint; the answer shows its signing secret, once

     Add a webhook endpoint; the answer shows its signing secret, once.

    Args:
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksCreateWebhookResponse201]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,

) -> PascalError | V1WebhooksCreateWebhookResponse201 | None:
    """ Add a webhook endpoint; the answer shows its signing secret, once

     Add a webhook endpoint; the answer shows its signing secret, once.

    Args:
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksCreateWebhookResponse201
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,

) -> Response[PascalError | V1WebhooksCreateWebhookResponse201]:
    """ Add a webhook endpoint; the answer shows its signing secret, once

     Add a webhook endpoint; the answer shows its signing secret, once.

    Args:
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1WebhooksCreateWebhookResponse201]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookCreate,

) -> PascalError | V1WebhooksCreateWebhookResponse201 | None:
    """ Add a webhook endpoint; the answer shows its signing secret, once

     Add a webhook endpoint; the answer shows its signing secret, once.

    Args:
        body (WebhookCreate):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1WebhooksCreateWebhookResponse201
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
