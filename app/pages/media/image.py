"""Is it the image it claims to be? The bytes are recognised by their signature (:func:`sniff`),
then decoded whole by Pillow as that one format (:func:`decode_problem`): a GIF header followed by
junk, a truncated PNG or a JPEG whose data is not a picture is refused before anything is kept.

Decoding is CPU work, so callers run :func:`decode_problem` off the event loop (``asyncio.to_thread``,
:func:`app.pages.media.service.inspect`). Its cost is bounded: an image may hold at most
:data:`MAX_PIXELS` pixels per frame (Pillow's ``Image.MAX_IMAGE_PIXELS``, a decompression bomb
beyond it is refused before its pixels are allocated), and all of an animation's frames together at
most :data:`MAX_TOTAL_PIXELS`.
"""

from __future__ import annotations

import io
import warnings

from PIL import Image, ImageSequence, UnidentifiedImageError

# 50 megapixels: past any landing-page image (8K is 33 megapixels); 200 MB of RGBA at worst.
MAX_PIXELS = 50_000_000
MAX_TOTAL_PIXELS = 4 * MAX_PIXELS  # every frame of an animated GIF or WebP, together
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

# Content type -> Pillow's format name: the only decoder tried for those bytes.
FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WEBP"}
NAMES = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP"}


def sniff(data: bytes) -> str | None:
    """The image type the bytes say they are (their signature), or None."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def decode_problem(data: bytes, content_type: str) -> str | None:
    """Why ``data`` is not a whole ``content_type`` image (None when every frame decodes)."""
    name = NAMES[content_type]
    total = 0
    try:
        with warnings.catch_warnings():
            # Pillow warns between MAX_IMAGE_PIXELS and twice that, and raises beyond: both refuse.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # verify() checks the structure (a PNG's chunk checksums, its end) without decoding; it
            # leaves the image unusable, so the pixels are decoded from a second open.
            with Image.open(io.BytesIO(data), formats=[FORMATS[content_type]]) as image:
                image.verify()
            with Image.open(io.BytesIO(data), formats=[FORMATS[content_type]]) as image:
                for frame in ImageSequence.Iterator(image):
                    total += frame.width * frame.height
                    if total > MAX_TOTAL_PIXELS:
                        return f"holds more than {MAX_TOTAL_PIXELS} pixels in all its frames"
                    frame.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return f"is larger than {MAX_PIXELS} pixels"
    except UnidentifiedImageError:
        return f"does not decode as a {name} image (not an image)"
    except Exception:  # noqa: BLE001 - Pillow's decoders fail damaged input with OSError, SyntaxError,
        # ValueError, EOFError, struct.error and others: whichever it is, the bytes are not that image.
        return f"does not decode as a {name} image (damaged or truncated)"
    return None
