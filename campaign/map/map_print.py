"""The tactical map at an hour, printed: one A4 landscape page at 150 dots per inch, drawn with Pillow, as a PNG
or a PDF. It draws what campaign.map.map_at_hour gives for the viewer (fog of war applied there, by the map's one
visibility selector): the map's picture (else a plain ground), terrain, locations with their names and holders,
Bases, the armies (close ones grouped with their count) with their routes and the way they walked, Battles due
and fought, a title saying whose map, which hour and Day and for whom it was drawn, and a legend.

Drawing goes in two steps: `map_sheet` lays the page out as plain shapes and texts in page pixels (the labels
placed so that none overlaps another or a marker), and `sheet_image` paints them. Tests read the sheet.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from itertools import pairwise

from django.utils import timezone
from PIL import Image, ImageDraw, ImageFont

from campaign.map.map_at_hour import ArmyAtHour, MapAtHour, map_at_hour
from campaign.models import DueBattle, Membership

Point = tuple[float, float]
Colour = tuple[int, int, int] | tuple[int, int, int, int]

DPI = 150
PAGE = (1754, 1240)  # A4 landscape (297 x 210 mm) at 150 dots per inch
MARGIN = 44
TITLE_HEIGHT = 128
LEGEND_WIDTH = 330
GAP = 28

INK, MUTED, PAPER, WHITE = (31, 29, 26), (96, 90, 82), (255, 255, 255), (255, 255, 255)
GROUND = (226, 232, 204)  # a map without a picture
ROUTE, DUE, FOUGHT, GOLD, BASE = (30, 30, 30), (176, 36, 24), (107, 101, 92), (240, 199, 94), (91, 63, 140)
TERRAIN = {"open": ((232, 227, 160), (140, 134, 70)), "difficult": ((47, 107, 47), (33, 77, 33)),
           "challenging": ((122, 90, 46), (78, 58, 28)), "impassable": ((31, 79, 140), (22, 58, 102))}
TERRAIN_WORDS = {"open": "Open ground", "difficult": "Difficult terrain", "challenging": "Especially challenging",
                 "impassable": "Impassable"}
COMMANDER_COLOURS = ((43, 93, 122), (161, 42, 30), (46, 110, 50), (110, 58, 140), (184, 98, 0), (0, 112, 120),
                     (120, 80, 40), (176, 30, 100))
"""Each commander's armies in one colour (cycling after eight), told in the legend."""

GROUP_RADIUS = 22
GROUP_DISTANCE = 36  # markers closer than this (page pixels) are drawn as one group
MANY_ROUTES = 300  # more routes than this are drawn thin and plain


@lru_cache(maxsize=16)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled TrueType font at that size."""
    return ImageFont.load_default(size=size)


@lru_cache(maxsize=20_000)
def _width(text: str, size: int) -> float:
    return _font(size).getlength(text)


@dataclass(frozen=True)
class Shape:
    """A mark in page pixels. `kind`: polygon and line (through `points`), dashed (a line in dashes); circle,
    square, triangle and diamond (centred on `points[0]`, `size` its radius or half side), cross (two strokes of
    `size`). `under`: translucent, painted under every other mark."""

    kind: str
    points: tuple[Point, ...]
    size: float = 0.0
    fill: Colour | None = None
    outline: Colour | None = None
    width: int = 1
    under: bool = False


@dataclass(frozen=True)
class Text:
    """A line of text at a point of the page (Pillow's anchor: "mm" is its middle), haloed in white to stay legible
    over the picture."""

    at: Point
    text: str
    size: int
    fill: Colour = INK
    anchor: str = "mm"
    halo: int = 3


@dataclass
class Sheet:
    """A page laid out: the map's box, its picture (already scaled to the box), the map's shapes (kept inside the
    box), the legend's, and the texts, each in the order they are painted."""

    box: tuple[int, int, int, int]
    picture: Image.Image | None
    shapes: list[Shape] = field(default_factory=list)
    legend: list[Shape] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)


class _Labeller:
    """Labels beside their marker (below, above, right, left), each only where it overlaps nothing placed before
    it, inside the map's box; markers reserve their place first. Rank orders them: lower ranks go first."""

    CELL = 64

    def __init__(self, box: tuple[int, int, int, int]) -> None:
        self.box = box
        self.grid: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}  # (left, top, right, bottom)
        self.queue: list[tuple[int, int, str, tuple[float, float, float], int, Colour]] = []

    def _cells(self, left: float, top: float, w: float, h: float) -> list[tuple[int, int]]:
        return [(i, j) for i in range(int(left // self.CELL), int((left + w) // self.CELL) + 1)
                for j in range(int(top // self.CELL), int((top + h) // self.CELL) + 1)]

    def _free(self, left: float, top: float, w: float, h: float) -> bool:
        right, bottom = left + w, top + h
        for key in self._cells(left, top, w, h):
            for x0, y0, x1, y1 in self.grid.get(key, ()):
                if left < x1 and x0 < right and top < y1 and y0 < bottom:
                    return False
        return True

    def _take(self, left: float, top: float, w: float, h: float) -> None:
        for key in self._cells(left, top, w, h):
            self.grid.setdefault(key, []).append((left, top, left + w, top + h))

    def block(self, x: float, y: float, r: float) -> None:
        self._take(x - r, y - r, 2 * r, 2 * r)

    def add(self, rank: int, text: str, around: tuple[float, float, float], size: int, colour: Colour = INK) -> None:
        self.queue.append((rank, len(self.queue), text, around, size, colour))

    def place(self) -> list[Text]:
        placed = []
        left, top, right, bottom = self.box
        for _, _, text, (x, y, r), size, colour in sorted(self.queue, key=lambda item: item[:2]):
            w, h = _width(text, size) + 8, size + 6
            for cx, cy in ((x + dx * (w / 2 + ring), y + dy * (h / 2 + ring)) for ring in (r + 3, r + 16, r + 30)
                       for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))):
                cx = max(left + w / 2, min(right - w / 2, cx))
                if top <= cy - h / 2 and cy + h / 2 <= bottom and self._free(cx - w / 2, cy - h / 2, w, h):
                    self._take(cx - w / 2, cy - h / 2, w, h)
                    placed.append(Text(at=(cx, cy), text=text, size=size, fill=colour))
                    break
        return placed


def _hour_words(scene: MapAtHour) -> tuple[str, str]:
    """The hour in the title, and how it was worked out (for the legend)."""
    event = scene.view.event
    if event is None:
        return "No Event under way: the map as it stands", "Armies stand where they are now."
    day = f" · Day {scene.day.number}" if scene.day is not None else ""
    title = f"{event.name} · Hour {scene.hour}{day}"
    ahead = scene.hour - scene.current_hour
    if scene.tense == "now":
        return f"{title} · now", "Armies stand where they are now; a dashed line is the route still ahead."
    if scene.tense == "ahead":
        return (f"{title} · {ahead} hour{'s' if ahead != 1 else ''} ahead of hour {scene.current_hour}",
                "Where the orders under way take the armies by the end of that hour if nothing stops them (no "
                "Battle on the way is foreseen); a solid line is the way there, a dashed one the route still "
                "ahead. Armies seen by a reveal stay where they were seen.")
    return (f"{title} · as recorded",
            f"As the map stood when hour {scene.hour}'s Moves were done (from the hour's records); a solid line is "
            "an army's Move in that hour. Sizes are not kept per hour.")


def _viewer_words(membership: Membership, drawn_at: datetime) -> str:
    user = membership.user
    who = user.get_full_name() or user.username
    role = "game master: every army" if membership.is_gm else "player: own armies and what was revealed"
    return f"Drawn for {who} ({role}) · {timezone.localtime(drawn_at):%d %b %Y, %H:%M}"


def _colours(scene: MapAtHour) -> dict[int, Colour]:
    """A colour per commander on the sheet: the viewer's own first, then by name."""
    commanders = sorted({(not a.marker.own, a.marker.commander, a.marker.commander_id) for a in scene.armies})
    return {pk: COMMANDER_COLOURS[i % len(COMMANDER_COLOURS)] for i, (_, _, pk) in enumerate(commanders)}


def _groups(armies: list[tuple[ArmyAtHour, Point]]) -> list[list[tuple[ArmyAtHour, Point]]]:
    """Armies whose markers would overlap, as groups (each joins the first group close enough, found through a
    grid of cells as wide as the distance)."""
    cells: dict[tuple[int, int], list[list]] = {}
    groups: list[list[tuple[ArmyAtHour, Point]]] = []
    for army, (x, y) in armies:
        i, j = int(x // GROUP_DISTANCE), int(y // GROUP_DISTANCE)
        near = next((g for a in (i - 1, i, i + 1) for b in (j - 1, j, j + 1) for g in cells.get((a, b), ())
                     if math.dist(g[0][1], (x, y)) < GROUP_DISTANCE), None)
        if near is None:
            near = []
            groups.append(near)
            cells.setdefault((i, j), []).append(near)
        near.append((army, (x, y)))
    return groups


def _dashes(points: tuple[Point, ...], dash: float = 14.0, gap: float = 9.0) -> list[tuple[Point, Point]]:
    """A polyline cut into dashes, the pattern running on across its turns."""
    pieces, on, left = [], True, dash
    for a, b in pairwise(points):
        length = math.dist(a, b)
        done = 0.0
        while length - done > 1e-9:
            step = min(left, length - done)
            if on:
                t0, t1 = done / length, (done + step) / length
                pieces.append(((a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                               (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)))
            done += step
            left -= step
            if left <= 1e-9:
                on = not on
                left = dash if on else gap
    return pieces


def map_sheet(*, scene: MapAtHour, membership: Membership, drawn_at: datetime | None = None) -> Sheet:
    """The page laid out for the member the scene was worked out for (see the module's docstring)."""
    tactical_map = scene.view.tactical_map
    area_w, area_h = PAGE[0] - 2 * MARGIN - LEGEND_WIDTH - GAP, PAGE[1] - 2 * MARGIN - TITLE_HEIGHT
    scale = min(area_w / tactical_map.width_inches, area_h / tactical_map.height_inches)
    w, h = round(tactical_map.width_inches * scale), round(tactical_map.height_inches * scale)
    left, top = MARGIN + (area_w - w) // 2, MARGIN + TITLE_HEIGHT + (area_h - h) // 2
    box = (left, top, left + w, top + h)
    sheet = Sheet(box=box, picture=_picture(tactical_map, (w, h)))
    shapes, label = sheet.shapes, _Labeller(box)

    def at(x: float, y: float) -> Point:
        return (left + x * scale, top + y * scale)

    for region in scene.view.regions:
        fill, edge = TERRAIN.get(region.kind, TERRAIN["open"])
        corners = tuple(at(*p) for p in region.points)
        shapes.append(Shape("polygon", corners, fill=(*fill, 56), outline=(*edge, 220), width=2, under=True))
        cx, cy = sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners) / len(corners)
        label.add(5, region.name, (cx, cy, 0), 17, MUTED)
    _places(scene, at, shapes, label)
    colours = _colours(scene)
    _routes(scene, at, shapes, label, colours)
    _armies(scene, at, shapes, sheet.texts, label, colours)
    _battles(scene, at, shapes, label)
    sheet.texts.extend(label.place())
    hour_title, how = _hour_words(scene)
    sheet.texts.extend([
        Text((MARGIN, MARGIN + 20), f"{tactical_map.campaign.name} · {tactical_map.name}", 38, anchor="lm", halo=0),
        Text((MARGIN, MARGIN + 66), hour_title, 26, anchor="lm", halo=0),
        Text((MARGIN, MARGIN + 98), _viewer_words(membership, drawn_at or timezone.now()), 18, MUTED, "lm", 0),
    ])
    _legend(sheet, scene, how, colours, scale)
    return sheet


def _places(scene: MapAtHour, at, shapes: list[Shape], label: _Labeller) -> None:
    """Bases (a triangle) and locations (a square, larger for a town and a city; gold when held), named."""
    for base in scene.view.bases:
        x, y = at(base.x, base.y)
        shapes.append(Shape("triangle", ((x, y),), 11, fill=BASE, outline=WHITE, width=2))
        label.block(x, y, 12)
        label.add(4, f"{base.name} +{base.morale_bonus}", (x, y, 12), 17, BASE)
    for location in scene.view.locations:
        x, y = at(location.x, location.y)
        half = {"city": 14, "town": 11}.get(location.size, 9)
        holder = scene.holders.get(location.pk, "")
        shapes.append(Shape("square", ((x, y),), half, fill=GOLD if holder else PAPER, outline=INK, width=3))
        label.block(x, y, half + 2)
        label.add(0, location.name + (f" ({holder})" if holder else ""), (x, y, half + 3), 22)


def _routes(scene: MapAtHour, at, shapes: list[Shape], label: _Labeller, colours: dict[int, Colour]) -> None:
    """The way each army walked (solid, in its colour) and the route still ahead (dashed, ending at its arrival
    hour; thin and plain, without the hours, when there are very many)."""
    many = sum(1 for a in scene.armies if a.ahead) > MANY_ROUTES
    for army in scene.armies:
        if len(army.walked) > 1:
            points = tuple(at(*p) for p in army.walked)
            shapes.append(Shape("line", points, outline=(*WHITE, 170), width=9, under=True))
            shapes.append(Shape("line", points, outline=colours[army.marker.commander_id], width=5, under=True))
    for army in scene.armies:
        if not army.ahead:
            continue
        points = tuple(at(*p) for p in army.ahead)
        shapes.append(Shape("line" if many else "dashed", points, outline=ROUTE, width=2 if many else 3))
        end = points[-1]
        shapes.append(Shape("circle", (end,), 4, fill=ROUTE))
        if army.marker.arrival_hour is not None and not many:
            about = "about " if army.marker.order_kind == "army" else ""
            label.add(3, f"{about}hour {army.marker.arrival_hour}", (end[0], end[1], 4), 17)


def _armies(scene: MapAtHour, at, shapes: list[Shape], numbers: list[Text], label: _Labeller,
            colours: dict[int, Colour]) -> None:
    """One marker per army in its commander's colour, the number its miniatures (an army seen by a reveal is
    paler, with the hour it was seen); armies close together are one marker with their count."""
    for group in _groups([(army, at(army.x, army.y)) for army in scene.armies]):
        x = sum(p[0] for _, p in group) / len(group)
        y = sum(p[1] for _, p in group) / len(group)
        first = group[0][0]
        if len(group) > 1:
            commanders = {army.marker.commander_id for army, _ in group}
            fill = colours[first.marker.commander_id] if len(commanders) == 1 else INK
            shapes.append(Shape("circle", ((x, y),), GROUP_RADIUS, fill=fill, outline=WHITE, width=4))
            label.block(x, y, GROUP_RADIUS + 2)
            label.add(2, f"{len(group)} armies", (x, y, GROUP_RADIUS), 18)
            numbers.append(Text((x, y), str(len(group)), 21, WHITE, halo=0))
            continue
        marker, minis = first.marker, first.miniatures
        r = 15 if minis is None else max(15, min(22, 12 + math.sqrt(minis) * 2.5))
        colour = colours[marker.commander_id]
        fill = colour if marker.own else (*((c + 255 * 2) // 3 for c in colour[:3]),)
        shapes.append(Shape("circle", ((x, y),), r, fill=fill, outline=WHITE if marker.own else colour, width=3))
        if minis is not None:
            numbers.append(Text((x, y), str(minis), 20, WHITE if marker.own else INK, halo=0))
        label.block(x, y, r + 2)
        seen = f" (seen hour {marker.as_of_hour})" if marker.as_of_hour is not None else ""
        label.add(2, marker.name + seen, (x, y, r), 19)


def _battles(scene: MapAtHour, at, shapes: list[Shape], label: _Labeller) -> None:
    """A diamond with crossed swords above the place of each Battle: red when due, grey when fought."""
    for battle in scene.battles:
        x, y = at(battle["x"], battle["y"])
        y -= 36
        due = battle["status"] == DueBattle.Status.DUE
        shapes.append(Shape("diamond", ((x, y),), 20, fill=DUE if due else FOUGHT, outline=WHITE, width=3))
        shapes.append(Shape("cross", ((x, y),), 6, outline=WHITE, width=2))
        label.block(x, y, 21)
        label.add(1, f"{'Battle due' if due else 'Fought'}, hour {battle['hour']}", (x, y, 21), 19,
                  DUE if due else INK)


def _legend(sheet: Sheet, scene: MapAtHour, how: str, colours: dict[int, Colour], scale: float) -> None:
    """The legend beside the map: the marks, the terrain, each commander's colour, a scale and how the hour was
    worked out."""
    x0, y = PAGE[0] - MARGIN - LEGEND_WIDTH, sheet.box[1]
    shapes, texts = sheet.legend, sheet.texts
    texts.append(Text((x0, y + 12), "Legend", 24, anchor="lm", halo=0))
    y += 44

    def row(words: str, *marks: Shape) -> None:
        nonlocal y
        shapes.extend(marks)
        texts.append(Text((x0 + 46, y), words, 18, anchor="lm", halo=0))
        y += 34

    def c(kind: str, size: float, **style) -> Shape:
        return Shape(kind, ((x0 + 18, y),), size, **style)

    own = COMMANDER_COLOURS[0]
    if any(a.miniatures is not None for a in scene.armies):
        texts.append(Text((x0 + 18, y), "4", 18, WHITE, halo=0))
        row("An army: its miniatures", c("circle", 13, fill=own, outline=WHITE, width=3))
    else:
        row("An army", c("circle", 13, fill=own, outline=WHITE, width=3))
    texts.append(Text((x0 + 18, y), "3", 18, WHITE, halo=0))
    row("Armies together: how many", c("circle", 15, fill=INK, outline=WHITE, width=3))
    if any(not a.marker.own for a in scene.armies):
        row("An army as last seen", c("circle", 13, fill=(202, 214, 222), outline=own, width=3))
    if any(a.ahead for a in scene.armies):
        row("Route ahead; hour it arrives", Shape("dashed", ((x0, y), (x0 + 36, y)), outline=ROUTE, width=3))
    if any(len(a.walked) > 1 for a in scene.armies):
        row("The way walked", Shape("line", ((x0, y), (x0 + 36, y)), outline=own, width=5))
    row("Location (gold: held)", c("square", 10, fill=GOLD, outline=INK, width=3))
    if scene.view.bases:
        row("Base and its Morale bonus", c("triangle", 11, fill=BASE, outline=WHITE, width=2))
    row("Battle due", c("diamond", 15, fill=DUE, outline=WHITE, width=2), c("cross", 4, outline=WHITE, width=2))
    if any(b["status"] != DueBattle.Status.DUE for b in scene.battles):
        row("Battle fought", c("diamond", 15, fill=FOUGHT, outline=WHITE, width=2),
            c("cross", 4, outline=WHITE, width=2))
    for kind in sorted({r.kind for r in scene.view.regions}):
        fill, edge = TERRAIN.get(kind, TERRAIN["open"])
        row(TERRAIN_WORDS.get(kind, kind), Shape("polygon", ((x0 + 4, y - 11), (x0 + 32, y - 11), (x0 + 32, y + 11),
                                                             (x0 + 4, y + 11)), fill=(*fill, 90), outline=edge,
                                                 width=2, under=True))
    y += 6
    commanders = sorted({(not a.marker.own, a.marker.commander, a.marker.commander_id) for a in scene.armies})
    room = max(0, (sheet.box[3] - y - 190) // 30)
    for _, name, pk in commanders[:room]:
        row(name, c("circle", 10, fill=colours[pk], outline=WHITE, width=2))
    if len(commanders) > room:
        texts.append(Text((x0, y), f"and {len(commanders) - room} more commanders", 16, MUTED, "lm", 0))
        y += 30
    inches = 6 if scale * 6 <= LEGEND_WIDTH - 40 else 1
    y += 10
    shapes.append(Shape("line", ((x0, y), (x0 + inches * scale, y)), outline=INK, width=4))
    shapes.extend(Shape("line", ((x0 + t * scale, y - 6), (x0 + t * scale, y + 6)), outline=INK, width=2)
                  for t in range(inches + 1))
    texts.append(Text((x0, y + 20), f"{inches} inches", 16, anchor="lm", halo=0))
    y += 46
    due = sum(1 for b in scene.battles if b["status"] == DueBattle.Status.DUE)
    texts.append(Text((x0, y), f"{len(scene.armies)} armies · {due} Battle{'s' if due != 1 else ''} due", 17,
                      anchor="lm", halo=0))
    y += 30
    for line in _wrap(how, 15, LEGEND_WIDTH):
        texts.append(Text((x0, y), line, 15, MUTED, "lm", 0))
        y += 21


def _wrap(text: str, size: int, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and _width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def _picture(tactical_map, size: tuple[int, int]) -> Image.Image | None:
    """The map's picture scaled to the map's box and lightened a little so that the marks stand out (None: no
    picture, or its file is gone)."""
    if not tactical_map.picture:
        return None
    try:
        with tactical_map.picture.open("rb") as handle:
            picture = Image.open(handle).convert("RGB")
            picture.draft("RGB", size)
    except (OSError, ValueError):
        return None
    picture = picture.resize(size, Image.Resampling.LANCZOS)
    return Image.blend(picture, Image.new("RGB", size, WHITE), 0.18)


def sheet_image(sheet: Sheet) -> Image.Image:
    """Paint the sheet: picture (or plain ground), the map's translucent marks under its other marks (both cut to
    the map's box), its frame, the legend, then the texts."""
    page = Image.new("RGB", PAGE, PAPER)
    left, top, right, bottom = sheet.box
    if sheet.picture is not None:
        page.paste(sheet.picture, (left, top))
    else:
        page.paste(GROUND, sheet.box)
    for under in (True, False):
        layer = _layer([s for s in sheet.shapes if s.under == under]).crop(sheet.box)
        page.paste(layer, (left, top), layer)
    draw = ImageDraw.Draw(page)
    draw.rectangle((left - 2, top - 2, right + 1, bottom + 1), outline=INK, width=2)
    legend = _layer(sheet.legend)
    page.paste(legend, (0, 0), legend)
    for text in sheet.texts:
        draw.text(text.at, text.text, font=_font(text.size), fill=text.fill, anchor=text.anchor,
                  stroke_width=text.halo, stroke_fill=WHITE)
    return page


def _layer(shapes: list[Shape]) -> Image.Image:
    """The shapes painted on a transparent page (translucent ones blend with those under them)."""
    layer = Image.new("RGBA", PAGE, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer, "RGBA")
    for s in shapes:
        (x, y), r = s.points[0], s.size
        if s.kind == "polygon":
            draw.polygon(s.points, fill=s.fill, outline=s.outline, width=s.width)
        elif s.kind == "line":
            draw.line(s.points, fill=s.outline, width=s.width, joint="curve")
        elif s.kind == "dashed":
            for a, b in _dashes(s.points):
                draw.line((a, b), fill=s.outline, width=s.width)
        elif s.kind == "circle":
            draw.ellipse((x - r, y - r, x + r, y + r), fill=s.fill, outline=s.outline, width=s.width)
        elif s.kind == "square":
            draw.rectangle((x - r, y - r, x + r, y + r), fill=s.fill, outline=s.outline, width=s.width)
        elif s.kind == "triangle":
            draw.polygon(((x, y - r), (x + r, y + r * 0.7), (x - r, y + r * 0.7)), fill=s.fill, outline=s.outline,
                         width=s.width)
        elif s.kind == "diamond":
            draw.polygon(((x, y - r), (x + r, y), (x, y + r), (x - r, y)), fill=s.fill, outline=s.outline,
                         width=s.width)
        elif s.kind == "cross":
            draw.line(((x - r, y - r), (x + r, y + r)), fill=s.outline, width=s.width)
            draw.line(((x - r, y + r), (x + r, y - r)), fill=s.outline, width=s.width)
    return layer


def sheet_file(sheet: Sheet, **options) -> bytes:
    """The sheet's image as a file: a PNG, or a PDF of one A4 landscape page (150 dots per inch, with little JPEG
    loss so that text stays crisp)."""
    out = io.BytesIO()
    sheet_image(sheet).save(out, **options)
    return out.getvalue()


def map_export(*, tactical_map, membership: Membership, hour: int | None, pdf: bool,
               drawn_at: datetime | None = None) -> tuple[bytes, str, str]:
    """The map at `hour` (None: the current hour) printed for this member: the file's bytes, content type and name,
    or a ValidationError whose sentence says why that hour cannot be drawn."""
    scene = map_at_hour(tactical_map=tactical_map, membership=membership, hour=hour)
    sheet = map_sheet(scene=scene, membership=membership, drawn_at=drawn_at)
    name = f"{tactical_map.campaign.slug}-map-hour-{scene.hour}"
    if pdf:
        title = f"{tactical_map.campaign.name} · {tactical_map.name} · hour {scene.hour}"
        pdf_file = sheet_file(sheet, format="PDF", resolution=float(DPI), title=title, quality=92, subsampling=0)
        return pdf_file, "application/pdf", f"{name}.pdf"
    return sheet_file(sheet, format="PNG", dpi=(DPI, DPI)), "image/png", f"{name}.png"
