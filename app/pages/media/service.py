"""Media: images of an account, stored by content.

- Allowlisted types only, recognised from the bytes (never the name or the declared type): PNG,
  JPEG, GIF, WebP (415 for another type). SVG is refused (it can carry script). Bytes that claim
  one of these types are kept only when they decode whole as it (app/pages/media/image.py, in a
  thread, within a pixel bound): else 422, and nothing is written.
- At most :data:`MAX_BYTES`.
- The file is written to disk first (``<media dir>/<sha256>``, through a temporary file and an atomic
  rename), then the row; a crash in between leaves an unreferenced file, never a row without its
  file. A duplicate (same account, same content) writes nothing and answers the existing row.
- Files are shared by content: one file per SHA-256 whatever the accounts. Deleting a row removes
  the file once no other row (of any account) names that hash. Store and delete take a transaction
  advisory lock on the hash, so a delete never removes a file an upload of the same content is
  about to reference: whichever comes second sees the other's committed outcome. A row whose file
  is missing (a delete whose commit failed after the unlink) is healed by uploading the content
  again: a duplicate rewrites the file when it is absent.
- An image a page uses (draft, live version or a variant) cannot be deleted: 409.
- Served publicly by id only (the row names the file; no path ever comes from a request).
- Import from a URL goes through kit/egress.py (https on 443, no internal addresses, checked
  again at connect time, no redirects, the answer capped while reading).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
from pathlib import Path

import httpx
from tortoise.backends.base.client import BaseDBAsyncClient

from app.http import errors
from app.http.paging import KeysetPage, Page as Listing
from app.pages.errors import UndecodableImage, UnsupportedMedia
from app.pages.media import image
from app.pages.page.service import used_in_pages
from kit import egress
from models.pages import Media

MAX_BYTES = 5 * 1024 * 1024
IMPORT_TIMEOUT = 10.0
ALLOWED_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")


async def inspect(data: bytes, *, field: str) -> str:
    """The content type of an image that may be kept: 413 too big, 415 not an allowlisted type,
    422 (``Details[field]``) when the bytes do not decode as the type they claim. Decoding runs
    in a thread: the event loop goes on serving while a large image is checked."""
    if len(data) > MAX_BYTES:
        raise errors.PayloadTooLarge(MAX_BYTES)
    content_type = image.sniff(data)
    if content_type is None:
        raise UnsupportedMedia(details={field: "not a PNG, JPEG, GIF or WebP image"})
    problem = await asyncio.to_thread(image.decode_problem, data, content_type)
    if problem is not None:
        raise UndecodableImage(f"The file {problem}.", details={field: problem})
    return content_type


def media_dir(var_dir: Path) -> Path:
    return var_dir / "media"


def file_of(directory: Path, media: Media) -> Path:
    return directory / media.sha256


def _write(directory: Path, digest: str, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / digest
    if target.exists() and target.stat().st_size == len(data):
        return
    temporary = directory / f".{digest}.{os.getpid()}.tmp"
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, target)


def _unlink(directory: Path, digest: str) -> None:
    (directory / digest).unlink(missing_ok=True)


async def _lock_content(conn: BaseDBAsyncClient, digest: str) -> None:
    """Serialises store and delete of one content (until the transaction ends)."""
    await conn.execute_query("SELECT pg_advisory_xact_lock($1)", [int(digest[:15], 16)])


async def store(conn: BaseDBAsyncClient, tenant: str, data: bytes, content_type: str, *, directory: Path,
                filename: str = "", source_url: str | None = None) -> tuple[Media, bool]:
    """(row, created): disk first, then the row; a duplicate writes nothing (but a missing file).
    ``data`` passed :func:`inspect` (before the transaction: no connection is held while it decodes),
    which gave ``content_type``. ``conn`` is a transaction (the content lock is held until it ends)."""
    digest = hashlib.sha256(data).hexdigest()
    await _lock_content(conn, digest)
    existing = await Media.filter(tenant_id=tenant, sha256=digest).using_db(conn).first()
    await asyncio.to_thread(_write, directory, digest, data)  # nothing when the file is there
    if existing is not None:
        return existing, False
    row = await Media.create(using_db=conn, tenant_id=tenant, sha256=digest, content_type=content_type,
                             size=len(data), filename=filename[:255], source_url=source_url)
    return row, True


async def delete(conn: BaseDBAsyncClient, tenant: str, media_id: str, *, directory: Path) -> None:
    """Deletes the account's image (404 foreign or missing; 409 while a page uses it), and its file
    when no other row names the content. ``conn`` is a transaction."""
    media = await find(conn, tenant, media_id)
    if await used_in_pages(conn, tenant, {"MediaId": media.public_id}):
        raise errors.Conflict("A page uses this image; remove it from the page first.")
    await _lock_content(conn, media.sha256)
    await media.delete(using_db=conn)
    if not await Media.filter(sha256=media.sha256).using_db(conn).exists():
        await asyncio.to_thread(_unlink, directory, media.sha256)


async def fetch(url: str, *, allow_loopback: bool) -> bytes:
    """The bytes at ``url`` through the egress policy (422 when refused or not fetched, 413 when too big)."""
    policy = egress.Policy(max_reply_bytes=MAX_BYTES).with_loopback(allow_loopback)
    problem = policy.url_problem(url)
    if problem:
        raise errors.Unprocessable(f"Url {problem}.", details={"Url": problem})
    try:
        async with egress.client(policy, timeout=IMPORT_TIMEOUT) as client:
            answer = await client.get(url, headers={"Accept": "image/*"})
    except egress.UnsafeTarget as error:
        raise errors.Unprocessable(f"Url may not be fetched: {error}.", details={"Url": str(error)}) from None
    except egress.RefusedReply as error:
        if "larger" in str(error):
            raise errors.PayloadTooLarge(MAX_BYTES) from None
        raise errors.Unprocessable(f"The answer was refused: {error}.", details={"Url": str(error)}) from None
    except httpx.HTTPError as error:
        raise errors.Unprocessable("The URL could not be fetched.",
                                   details={"Url": f"not fetched ({type(error).__name__})"}) from None
    if answer.status_code != 200:
        raise errors.Unprocessable(f"The URL answered {answer.status_code}, not 200.",
                                   details={"Url": f"answered {answer.status_code}"})
    return answer.content


async def find(conn: BaseDBAsyncClient, tenant: str | None, media_id: str) -> Media:
    query = Media.filter(public_id=media_id).using_db(conn)
    if tenant is not None:
        query = query.filter(tenant_id=tenant)
    found = await query.first()
    if found is None:
        raise errors.NotFound("Media not found.")
    return found


async def list_media(conn: BaseDBAsyncClient, tenant: str, paging: KeysetPage) -> Listing:
    return await paging.fetch(conn, Media.filter(tenant_id=tenant).using_db(conn), audience=f"media:{tenant}")
