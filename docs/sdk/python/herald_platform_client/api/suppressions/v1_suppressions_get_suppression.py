from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.pascal_error import PascalError
from ...models.v1_suppressions_get_suppression_response_200 import V1SuppressionsGetSuppressionResponse200
from typing import cast



def _get_kwargs(
    suppression_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/suppressions/{suppression_id}".format(suppression_id=quote(str(suppression_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PascalError | V1SuppressionsGetSuppressionResponse200:
    if response.status_code == 200:
        response_200 = V1SuppressionsGetSuppressionResponse200.from_dict(response.json())



        return response_200

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



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[PascalError | V1SuppressionsGetSuppressionResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    suppression_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1SuppressionsGetSuppressionResponse200]:
    """ One suppressed address: its channel and why it is suppressed

     One suppressed address: its channel and why it is suppressed.

    Args:
        suppression_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1SuppressionsGetSuppressionResponse200]
     """


    kwargs = _get_kwargs(
        suppression_id=suppression_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    suppression_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1SuppressionsGetSuppressionResponse200 | None:
    """ One suppressed address: its channel and why it is suppressed

     One suppressed address: its channel and why it is suppressed.

    Args:
        suppression_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1SuppressionsGetSuppressionResponse200
     """


    return sync_detailed(
        suppression_id=suppression_id,
client=client,

    ).parsed

async def asyncio_detailed(
    suppression_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[PascalError | V1SuppressionsGetSuppressionResponse200]:
    """ One suppressed address: its channel and why it is suppressed

     One suppressed address: its channel and why it is suppressed.

    Args:
        suppression_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PascalError | V1SuppressionsGetSuppressionResponse200]
     """


    kwargs = _get_kwargs(
        suppression_id=suppression_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    suppression_id: str,
    *,
    client: AuthenticatedClient,

) -> PascalError | V1SuppressionsGetSuppressionResponse200 | None:
    """ One suppressed address: its channel and why it is suppressed

     One suppressed address: its channel and why it is suppressed.

    Args:
        suppression_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PascalError | V1SuppressionsGetSuppressionResponse200
     """


    return (await asyncio_detailed(
        suppression_id=suppression_id,
client=client,

    )).parsed
