"""Server-side rendering of a published page from its blocks: Jinja2 in a sandboxed, autoescaping
environment (templates in app/runtime/site/templates/). Everything a page carries is data: text is
escaped, URLs are the ones the pages system validated (http(s) only), brand values are checked again
here before they reach CSS."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader
from jinja2.sandbox import SandboxedEnvironment

TEMPLATES = Path(__file__).parent / "templates"
HONEYPOT = "website_url"  # the field people never see (class hp) and bots fill in
COLOR = re.compile(r"#[0-9a-fA-F]{6}")
FONT = re.compile(r"[A-Za-z0-9 _-]{1,100}")
SAFE_URL = re.compile(r"https?://[^\s\"'<>]+|/[^\s\"'<>]*")
DEFAULT_BRAND = {"primary": "#1f4fd1", "secondary": "#5b6472", "font": "system-ui", "logo": None}

ENV = SandboxedEnvironment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, trim_blocks=True,
                           lstrip_blocks=True)


def brand_of(raw: Any) -> dict:
    """The pages system's brand (``LogoUrl``, ``PrimaryColor``, ``SecondaryColor``, ``Font``), each
    element checked again; absent or invalid elements fall back to the runtime's defaults."""
    brand = dict(DEFAULT_BRAND)
    if isinstance(raw, dict):
        if isinstance(raw.get("PrimaryColor"), str) and COLOR.fullmatch(raw["PrimaryColor"]):
            brand["primary"] = raw["PrimaryColor"]
        if isinstance(raw.get("SecondaryColor"), str) and COLOR.fullmatch(raw["SecondaryColor"]):
            brand["secondary"] = raw["SecondaryColor"]
        if isinstance(raw.get("Font"), str) and FONT.fullmatch(raw["Font"]):
            brand["font"] = raw["Font"]
        if isinstance(raw.get("LogoUrl"), str) and raw["LogoUrl"].startswith("https://"):
            brand["logo"] = raw["LogoUrl"]
    return brand


def _url(value: Any) -> str:
    return value if isinstance(value, str) and SAFE_URL.fullmatch(value) else "#"


def _blocks(blocks: list, forms: dict[str, dict], pages_url: str) -> list[dict]:
    shown = []
    for raw in blocks or []:
        if not isinstance(raw, dict):
            continue
        block = dict(raw)
        kind = block.get("Type")
        if kind == "heading":
            level = block.get("Level", 2)
            block["level"] = level if isinstance(level, int) and 1 <= level <= 6 else 2
        elif kind == "text":
            block["paragraphs"] = [part for part in str(block.get("Text", "")).split("\n\n") if part.strip()]
        elif kind == "image":
            block["src"] = (f"{pages_url}/v1/public/midias/{block['MediaId']}" if block.get("MediaId")
                            else _url(block.get("Url")))
        elif kind == "button":
            block["Url"] = _url(block.get("Url"))
            block["style"] = "secondary" if block.get("Style") == "secondary" else "primary"
        elif kind == "embed":
            block["Url"] = _url(block.get("Url"))
            height = block.get("Height", 400)
            block["height"] = height if isinstance(height, int) and 50 <= height <= 4000 else 400
        elif kind == "form":
            block["form"] = forms.get(block.get("FormId"))
        shown.append(block)
    return shown


def page_html(page: dict, *, scheme: str, host: str, variant: str | None, forms: dict[str, dict],
              pixel: dict | None, pages_url: str) -> str:
    seo_raw = page.get("Seo") if isinstance(page.get("Seo"), dict) else {}
    path = "/" if page.get("Slug") in ("", None) else f"/{page['Slug']}"
    canonical = seo_raw.get("CanonicalUrl") or f"{scheme}://{host}{path}"
    seo = {"title": seo_raw.get("Title") or "", "description": seo_raw.get("Description") or "",
           "image": seo_raw.get("ImageUrl"), "canonical": _url(canonical), "no_index": bool(seo_raw.get("NoIndex"))}
    tag = None
    if pixel:
        tag = {"credential": pixel["credential"], "replay": pixel["replay"], "page": path, "variant": variant or ""}
    return ENV.get_template("page.html").render(
        lang="pt-BR", page=page, seo=seo, brand=brand_of(page.get("Brand")), pixel=tag, variant=variant,
        blocks=_blocks(page.get("Blocks") or [], forms, pages_url), action=path, honeypot=HONEYPOT)


def message_html(title: str, text: str, *, error: bool = False, back: str | None = None,
                 brand: Any = None) -> str:
    return ENV.get_template("message.html").render(lang="pt-BR", title=title, text=text, error=error,
                                                   back=back, brand=brand_of(brand), pixel=None)


NOT_FOUND_HTML = message_html("Page not found", "There is no published page at this address.")
