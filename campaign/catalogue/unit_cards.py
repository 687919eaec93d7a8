"""Printable unit cards: a commander's units as an A4 PDF, nine cards (3 x 3) to a page, drawn with Pillow.

Each card shows what a player needs at the table: the name, Strength ("-" for none), Role, Path, traits,
the special text (and what a third training gave) and the unit type's artwork thumbnail when it has one.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from campaign.models import Commander, Unit, UnitType

DPI = 150
PAGE_SIZE = (1240, 1754)  # A4 (210 x 297 mm) at 150 dots per inch
COLUMNS, ROWS = 3, 3
CARDS_PER_PAGE = COLUMNS * ROWS
MARGIN, GAP, PADDING = 50, 24, 18
INK, MUTED, FRAME = (31, 29, 26), (107, 101, 92), (122, 46, 31)
ART_HEIGHT = 170

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int) -> Font:
    """Pillow's bundled TrueType font at that size (the small bitmap font where FreeType is missing)."""
    return ImageFont.load_default(size=size)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: Font, width: int) -> list[str]:
    """Break text into lines no wider than `width`, keeping the text's own line breaks."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}".strip()
            if line and draw.textlength(candidate, font=font) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def _thumbnail(unit_type: UnitType, box: tuple[int, int], cache: dict[int, Image.Image | None]) -> Image.Image | None:
    """The unit type's thumbnail scaled into the box, or None when it has none (or its file is gone)."""
    if unit_type.pk not in cache:
        image = None
        if unit_type.artwork_thumbnail:
            try:
                with unit_type.artwork_thumbnail.open("rb") as handle:
                    image = Image.open(handle).convert("RGB")
                image.thumbnail(box)
            except (OSError, ValueError):
                image = None
        cache[unit_type.pk] = image
    return cache[unit_type.pk]


def _card_size() -> tuple[int, int]:
    width = (PAGE_SIZE[0] - 2 * MARGIN - (COLUMNS - 1) * GAP) // COLUMNS
    height = (PAGE_SIZE[1] - 2 * MARGIN - (ROWS - 1) * GAP) // ROWS
    return width, height


def _draw_card(page: Image.Image, unit: Unit, commander: Commander, origin: tuple[int, int],
               art: dict[int, Image.Image | None]) -> None:
    draw = ImageDraw.Draw(page)
    width, height = _card_size()
    left, top = origin
    right, bottom = left + width, top + height
    draw.rounded_rectangle((left, top, right, bottom), radius=18, outline=FRAME, width=4)
    inner = width - 2 * PADDING
    unit_type = unit.unit_type

    strength = "-" if unit.strength is None else str(unit.strength)
    badge = 64
    draw.ellipse((right - PADDING - badge, top + PADDING, right - PADDING, top + PADDING + badge), fill=FRAME)
    draw.text((right - PADDING - badge // 2, top + PADDING + badge // 2), strength, font=_font(40),
              fill=(255, 255, 255), anchor="mm")

    y = top + PADDING
    name_font = _font(28)
    for line in _wrap(draw, unit.name or unit_type.name, name_font, inner - badge - 8)[:2]:
        draw.text((left + PADDING, y), line, font=name_font, fill=INK)
        y += 34
    if unit.name:
        draw.text((left + PADDING, y), unit_type.name, font=_font(20), fill=MUTED)
        y += 26
    y = max(y, top + PADDING + badge) + 8

    thumb = _thumbnail(unit_type, (inner, ART_HEIGHT), art)
    if thumb is not None:
        page.paste(thumb, (left + (width - thumb.width) // 2, y))
        y += thumb.height + 10

    line_font, small = _font(22), _font(19)
    role_path = " · ".join(part for part in (unit_type.role, unit_type.path) if part) or "No Role or Path"
    draw.text((left + PADDING, y), role_path, font=line_font, fill=INK)
    y += 30
    if unit_type.traits:
        for line in _wrap(draw, ", ".join(unit_type.traits), small, inner):
            draw.text((left + PADDING, y), line, font=small, fill=MUTED)
            y += 24
    draw.line((left + PADDING, y + 4, right - PADDING, y + 4), fill=FRAME, width=2)
    y += 14

    text = "\n".join(part for part in (unit_type.text, unit.third_training_ability) if part)
    footer_top = bottom - PADDING - 22
    for line in _wrap(draw, text, small, inner):
        if y + 24 > footer_top:
            draw.text((left + PADDING, y), "…", font=small, fill=INK)
            break
        draw.text((left + PADDING, y), line, font=small, fill=INK)
        y += 24
    footer = f"{commander.name} · trained {unit.trainings}/3"
    draw.text((left + PADDING, footer_top), footer, font=_font(16), fill=MUTED)


def unit_card_pages(*, commander: Commander, units: Sequence[Unit]) -> list[Image.Image]:
    """The A4 pages, ceil(len(units) / 9) of them (one page saying so when there are no units)."""
    width, height = _card_size()
    art: dict[int, Image.Image | None] = {}
    pages = []
    for start in range(0, len(units), CARDS_PER_PAGE):
        page = Image.new("RGB", PAGE_SIZE, "white")
        for index, unit in enumerate(units[start:start + CARDS_PER_PAGE]):
            column, row = index % COLUMNS, index // COLUMNS
            _draw_card(page, unit, commander, (MARGIN + column * (width + GAP), MARGIN + row * (height + GAP)), art)
        pages.append(page)
    if not pages:
        page = Image.new("RGB", PAGE_SIZE, "white")
        ImageDraw.Draw(page).text((MARGIN, MARGIN), f"{commander.name} has no units to print.", font=_font(32),
                                  fill=INK)
        pages.append(page)
    return pages


def unit_cards_pdf(*, commander: Commander, units: Sequence[Unit]) -> bytes:
    """The pages as one multi-page PDF."""
    pages = unit_card_pages(commander=commander, units=units)
    buffer = io.BytesIO()
    pages[0].save(buffer, format="PDF", save_all=True, append_images=pages[1:], resolution=float(DPI),
                  title=f"Unit cards of {commander.name}")
    return buffer.getvalue()
