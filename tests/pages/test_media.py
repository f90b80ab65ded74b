"""Media over HTTP: multipart upload (field ``arquivo``), types sniffed from the bytes, size cap,
disk before row and nothing written for a duplicate, public serving by id with nosniff, and import
from a URL through the egress policy."""

from __future__ import annotations

import hashlib
import io
import os
import zlib
import struct
from pathlib import Path

import pytest

from app.pages.media.service import MAX_BYTES
from tests.pages.servers import LocalServer


def png(seed: int = 0) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"\x00" + bytes([seed % 256, 0, 0])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def media_dir() -> Path:
    return Path(os.environ["HERALD_VAR_DIR"]).resolve() / "media"


@pytest.fixture
def files():
    server = LocalServer()
    yield server
    server.close()


# A GIF header of a 16 x 16 screen followed by junk. The screen's size is fixed: random bytes there
# made a picture of up to 65535 x 65535, refused for its size before it could fail to decode.
JUNK_GIF = b"GIF89a" + (16).to_bytes(2, "little") * 2 + bytes(range(7, 256)) * 8

async def test_an_image_is_uploaded_once_and_served_publicly_by_id(pages, account, make_account):
    image = png(1)
    made = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": ("logo.txt", image, "text/plain")})
    assert made.status_code == 201, made.text
    media = made.json()["Midia"]
    assert media["ContentType"] == "image/png" and media["Size"] == len(image) and media["Filename"] == "logo.txt"
    stored = media_dir() / media["Sha256"]
    assert stored.read_bytes() == image
    before = stored.stat().st_mtime_ns

    again = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": ("copy.png", image, "image/png")})
    assert again.status_code == 200 and again.json()["Midia"]["Id"] == media["Id"]
    assert stored.stat().st_mtime_ns == before  # a duplicate writes nothing
    listed = await pages.get("/v1/midias", headers=account.headers)
    assert [item["Id"] for item in listed.json()["Midias"]] == [media["Id"]]

    public = await pages.get(media["Url"])
    assert public.status_code == 200 and public.content == image
    assert public.headers["content-type"] == "image/png"
    assert public.headers["x-content-type-options"] == "nosniff"
    assert "max-age" in public.headers["cache-control"] and public.headers["etag"]
    assert (await pages.get(media["Url"], headers={"If-None-Match": public.headers["etag"]})).status_code == 304
    assert (await pages.get("/v1/public/midias/mid_000000000000")).status_code == 404
    assert (await pages.get("/v1/public/midias/..%2F..%2Fetc%2Fpasswd")).status_code == 404

    other = await make_account(scopes=("pages:read", "pages:write"))
    assert (await pages.get("/v1/midias", headers=other.headers)).json()["Midias"] == []
    page = await pages.post("/v1/paginas", headers=other.headers,
                            json={"Title": "x", "Slug": "img", "Blocks": [{"Type": "image", "MediaId": media["Id"]}]})
    assert page.status_code == 422  # another account's image cannot be placed on a page


async def test_only_allowlisted_images_within_the_cap_are_accepted(pages, account):
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    refused = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": ("x.png", svg, "image/png")})
    assert refused.status_code == 415 and "arquivo" in refused.json()["Error"]["Details"]
    big = png(2) + b"\x00" * MAX_BYTES
    too_big = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": ("big.png", big, "image/png")})
    assert too_big.status_code == 413
    missing = await pages.post("/v1/midias", headers=account.headers, files={"outro": ("x.png", png(3), "image/png")})
    assert missing.status_code == 400


async def test_an_image_is_imported_from_a_url_through_the_egress_policy(pages, account, files):
    image = png(4)
    files.routes["/hero.png"] = (200, "image/png", image, {})
    files.routes["/moved"] = (302, "text/plain", b"", {"Location": "/hero.png"})
    files.routes["/page.html"] = (200, "text/html", b"<html></html>", {})
    imported = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": f"{files.url}/hero.png"})
    assert imported.status_code == 201, imported.text
    assert imported.json()["Midia"]["SourceUrl"] == f"{files.url}/hero.png"
    again = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": f"{files.url}/hero.png"})
    assert again.status_code == 200 and again.json()["Midia"]["Id"] == imported.json()["Midia"]["Id"]

    redirected = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": f"{files.url}/moved"})
    assert redirected.status_code == 422  # redirects are not followed
    not_image = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": f"{files.url}/page.html"})
    assert not_image.status_code == 415
    for unsafe in ("http://10.0.0.1/x.png", "https://169.254.169.254/latest", "file:///etc/passwd",
                   "https://example.com:8443/x.png", "ftp://example.com/x.png"):
        answer = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": unsafe})
        assert answer.status_code == 422, (unsafe, answer.text)
        assert "Url" in answer.json()["Error"]["Details"]


def encoded(kind: str, size: tuple[int, int] = (8, 8), mode: str = "RGB") -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new(mode, size, 0).save(out, kind)
    return out.getvalue()


async def test_only_files_that_decode_as_the_type_they_claim_are_kept(pages, account, files):
    for kind, content_type in (("GIF", "image/gif"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")):
        good = encoded(kind)
        made = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": ("x", good, content_type)})
        assert made.status_code == 201 and made.json()["Midia"]["ContentType"] == content_type, made.text

    jpeg = encoded("JPEG", (64, 64))
    bomb = encoded("PNG", (8000, 8000), mode="1")  # 64 megapixels in a few kilobytes
    for name, data, reason in (("junk.gif", JUNK_GIF, "does not decode as a GIF image"),
                               ("cut.jpg", jpeg[: len(jpeg) // 2], "does not decode as a JPEG image"),
                               ("cut.png", png(9)[:-20], "does not decode as a PNG image"),
                               ("bomb.png", bomb, "larger than 50000000 pixels")):
        refused = await pages.post("/v1/midias", headers=account.headers, files={"arquivo": (name, data, "image/gif")})
        assert refused.status_code == 422, (name, refused.text)
        error = refused.json()["Error"]
        assert error["Code"] == "ValidationError" and reason in error["Details"]["arquivo"], (name, error)
        assert not (media_dir() / hashlib.sha256(data).hexdigest()).exists()  # nothing kept
    listed = (await pages.get("/v1/midias", headers=account.headers)).json()["Midias"]
    assert len(listed) == 3

    files.routes["/junk.gif"] = (200, "image/gif", b"GIF89a" + b"\x00junk" * 100, {})
    imported = await pages.post("/v1/midias/importar", headers=account.headers, json={"Url": f"{files.url}/junk.gif"})
    assert imported.status_code == 422, imported.text
    assert "does not decode as a GIF image" in imported.json()["Error"]["Details"]["Url"]
    assert len((await pages.get("/v1/midias", headers=account.headers)).json()["Midias"]) == 3
