// The tactical map: Leaflet in inches (L.CRS.Simple, y down) over the campaign's picture, drawn from the JSON
// of the map's data URL (fog of war is applied on the server) and polled with its version and token: a 204
// means nothing this viewer sees changed, else the answer holds only the changes since the version shown.
// Locations, Bases, routes, armies and Battles are painted on one canvas, so thousands of armies stay fast (the
// layer control's entries only say what it paints); armies close together on screen are grouped with a count,
// and labels are in screen pixels and never overlap, so they stay legible at every zoom. Terrain is Leaflet
// polygons. The same data fills the lists under the map (keyboard and screen readers); an aria-live line
// announces arrivals and Battles due. Orders go through the move-orders API: tap an army, then a point, a
// location or an army, see the route and the arrival hour, confirm. Offline there is no preview: the player may
// confirm the destination alone, and the service worker (static/js/sw.js) keeps the order with its idempotency
// key until the signal returns; the server plans the route then, and the offline banner says what became of it.
(function () {
  "use strict";
  var box = document.getElementById("tactical-map");
  if (!box || !window.L) { return; }
  var panel = document.getElementById("map-panel");
  var writable = !box.hasAttribute("data-read-only");  // an archived campaign: no orders, reveals nor starts
  var csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;
  var POLL_MS = 4000, CELL = 36, FONT = "600 13px system-ui, sans-serif";
  var state = { data: null, v: "", t: "", groups: [], battles: [], places: [], ordering: null, picked: null, key: null,
    shown: null };
  var map, layers = {}, picture = null, bounds = null;

  function ll(x, y) { return L.latLng(-y, x); }
  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function minis(a) { return a.m === null ? "size unknown" : plural(a.m, "miniature"); }
  function byId(list, id) { return list.filter(function (item) { return item.id === id; })[0]; }
  function announce(text) { document.getElementById("map-announce").textContent = text; }

  // --- a canvas over the map (a little larger, so a pan shows no edge), painted after each pan or zoom and
  // scaled during the zoom animation. `at` projects inches to the canvas: x * at.s + at.x, y * at.s + at.y
  // (L.CRS.Simple scales by 2^zoom, so one origin and one factor say it all; plain numbers, as thousands of
  // armies are projected at every redraw).
  var CanvasLayer = L.Layer.extend({
    options: { pane: "canvases" },
    initialize: function (paint) { this._paint = paint; },
    onAdd: function () {
      this._canvas = L.DomUtil.create("canvas", "map-canvas leaflet-zoom-animated", this.getPane());
      this.redraw();
    },
    onRemove: function () { L.DomUtil.remove(this._canvas); },
    getEvents: function () { return { moveend: this.redraw, resize: this.redraw, zoomanim: this._zoomAnim }; },
    redraw: function () {
      if (!this._map) { return this; }
      var m = this._map, size = m.getSize(), pad = size.multiplyBy(0.1).round(), full = size.add(pad.multiplyBy(2));
      var ratio = window.devicePixelRatio || 1, canvas = this._canvas, topLeft = m.containerPointToLayerPoint(pad.multiplyBy(-1));
      L.DomUtil.setPosition(canvas, topLeft);
      if (canvas.width !== full.x * ratio || canvas.height !== full.y * ratio) {
        canvas.width = full.x * ratio; canvas.height = full.y * ratio;
        canvas.style.width = full.x + "px"; canvas.style.height = full.y + "px";
      }
      this._bounds = L.latLngBounds(m.layerPointToLatLng(topLeft), m.layerPointToLatLng(topLeft.add(full)));
      var ctx = canvas.getContext("2d");
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      ctx.clearRect(0, 0, full.x, full.y);
      ctx.font = FONT; ctx.textAlign = "center"; ctx.textBaseline = "middle"; ctx.lineJoin = "round";
      var origin = m.latLngToContainerPoint(ll(0, 0)).add(pad);
      this._paint(ctx, { x: origin.x, y: origin.y, s: m.getZoomScale(m.getZoom(), 0) }, full, pad, size);
      return this;
    },
    _zoomAnim: function (e) {
      var offset = this._map._latLngBoundsToNewLayerBounds(this._bounds, e.zoom, e.center).min;
      L.DomUtil.setTransform(this._canvas, offset, this._map.getZoomScale(e.zoom));
    }
  });

  // Labels are drawn from sprites: a label's text with its white halo is drawn once into a small canvas and then
  // copied, which costs a phone far less than stroking and filling the text at every redraw.
  var widths = {}, sprites = new Map(), SPRITES = 1500, LABEL_H = 17;
  function labelWidth(ctx, text) { return widths[text] || (widths[text] = ctx.measureText(text).width + 6); }
  function sprite(ctx, text, color) {
    var key = color + "\n" + text, found = sprites.get(key);
    if (found) { return found; }
    if (sprites.size >= SPRITES) { sprites.clear(); }
    var ratio = window.devicePixelRatio || 1, w = labelWidth(ctx, text), c = document.createElement("canvas");
    c.width = Math.ceil(w * ratio); c.height = LABEL_H * ratio;
    var g = c.getContext("2d");
    g.scale(ratio, ratio); g.font = FONT; g.textAlign = "center"; g.textBaseline = "middle"; g.lineJoin = "round";
    g.lineWidth = 4; g.strokeStyle = "rgba(255,253,248,0.95)"; g.strokeText(text, w / 2, LABEL_H / 2);
    g.fillStyle = color; g.fillText(text, w / 2, LABEL_H / 2);
    sprites.set(key, c);
    return c;
  }

  // An army's or a group's marker (a disc with its miniatures or count), drawn once and then copied, like labels.
  var markers = new Map();
  function marker(r, own, text, edge) {
    var key = r + (own ? "o" : "x") + edge + text, found = markers.get(key);
    if (found) { return found; }
    if (markers.size >= SPRITES) { markers.clear(); }
    var ratio = window.devicePixelRatio || 1, side = 2 * r + 4, c = document.createElement("canvas");
    c.width = c.height = Math.ceil(side * ratio);
    var g = c.getContext("2d");
    g.scale(ratio, ratio); g.font = FONT; g.textAlign = "center"; g.textBaseline = "middle";
    g.beginPath(); g.arc(side / 2, side / 2, r, 0, 2 * Math.PI);
    g.fillStyle = own ? "#2b5d7a" : "#a12a1e"; g.globalAlpha = own ? 1 : 0.8;  // another's: as last seen
    g.fill(); g.globalAlpha = 1;
    g.lineWidth = edge; g.strokeStyle = "#fff"; g.stroke();
    g.fillStyle = "#fff"; g.fillText(text, side / 2, side / 2);
    markers.set(key, c);
    return c;
  }

  // One labeller a frame: markers reserve their place, then labels are drawn by rank (Battles, armies, then
  // arrival hours), each only where it overlaps nothing already there, inside the visible part of the canvas.
  // Labels beyond a few milliseconds' work wait for the next animation frames (a newer redraw drops them), so a
  // pan or zoom over thousands of armies never holds a frame long.
  var labelRun = 0, LABEL_SLICE_MS = 8;
  function labeller(ctx, pad, size) {
    var grid = new Map(), queue = [], SIDE = 64, run = ++labelRun;
    function free(left, top, w, h, take) {
      var i0 = Math.floor(left / SIDE), i1 = Math.floor((left + w) / SIDE), j0 = Math.floor(top / SIDE), j1 = Math.floor((top + h) / SIDE);
      for (var pass = take ? 1 : 0; pass < 2; pass++) {
        for (var i = i0; i <= i1; i++) {
          for (var j = j0; j <= j1; j++) {
            var key = i * 65536 + j, cell = grid.get(key);
            if (pass === 1) {
              if (!cell) { grid.set(key, cell = []); }
              cell.push(left, top, w, h);
            } else if (cell) {
              for (var k = 0; k < cell.length; k += 4) {
                if (left < cell[k] + cell[k + 2] && cell[k] < left + w && top < cell[k + 1] + cell[k + 3] && cell[k + 1] < top + h) { return false; }
              }
            }
          }
        }
      }
      return true;
    }
    function place(item) {
      var text = item[1], w = labelWidth(ctx, text), h = LABEL_H, x = item[2], y = item[3], r = item[4];
      var xs = [x, x, x + r + 4 + w / 2, x - r - 4 - w / 2], ys = [y + r + 11, y - r - 11, y, y];
      for (var n = 0; n < 4; n++) {
        var cx = Math.max(pad.x + w / 2, Math.min(pad.x + size.x - w / 2, xs[n]));
        if (free(cx - w / 2, ys[n] - h / 2, w, h, false)) {
          free(cx - w / 2, ys[n] - h / 2, w, h, true);
          ctx.drawImage(sprite(ctx, text, item[5]), cx - w / 2, ys[n] - h / 2, w, h);
          return;
        }
      }
    }
    return {
      block: function (x, y, r) { free(x - r, y - r, 2 * r, 2 * r, true); },
      // around the marker at (x, y) of radius r: below it, else above, else right, else left
      add: function (rank, text, x, y, r, color) { queue.push([rank, text, x, y, r, color || "#1f1d1a"]); },
      draw: function () {
        queue.sort(function (a, b) { return a[0] - b[0]; });
        var next = 0;
        (function slice() {
          if (run !== labelRun) { return; }
          var until = performance.now() + LABEL_SLICE_MS;
          while (next < queue.length) {
            place(queue[next++]);
            if ((next & 15) === 0 && performance.now() > until) { requestAnimationFrame(slice); return; }
          }
        })();
      }
    };
  }

  function inView(px, py, full) { return px > -40 && py > -40 && px < full.x + 40 && py < full.y + 40; }

  // Routes of armies in view; hundreds at once are drawn thin and plain (dashes and wide lines cost a phone's
  // renderer dearly) and without their arrival hours (they could not be read).
  function paintRoutes(ctx, at, full, label) {
    var armies = state.data.armies, drawn = [], i, k;
    for (i = 0; i < armies.length; i++) {
      var a = armies[i];
      if (a.p && a.p.length > 1 && inView(a.x * at.s + at.x, a.y * at.s + at.y, full)) { drawn.push(a); }
    }
    var many = drawn.length > 300;
    ctx.beginPath();
    for (i = 0; i < drawn.length; i++) {
      var p = drawn[i].p;
      ctx.moveTo(p[0][0] * at.s + at.x, p[0][1] * at.s + at.y);
      for (k = 1; k < p.length; k++) { ctx.lineTo(p[k][0] * at.s + at.x, p[k][1] * at.s + at.y); }
    }
    // a line 1 pixel wide takes the renderer's fast path: ten times quicker than a wider one, for thousands
    ctx.strokeStyle = "#2b5d7a"; ctx.lineWidth = many ? 1 : 2.5; ctx.setLineDash(many ? [] : [7, 5]);
    ctx.stroke();
    ctx.setLineDash([]);
    if (many) { return; }
    drawn.forEach(function (a) {
      var end = a.p[a.p.length - 1], x = end[0] * at.s + at.x, y = end[1] * at.s + at.y;
      if (inView(x, y, full)) { label.add(3, (a.k === "army" ? "about hour " : "hour ") + a.at, x, y, 2, "#2b5d7a"); }
    });
  }

  // Armies close together on screen form one group: one army shows its miniatures, a group its count.
  function paintArmies(ctx, at, full, pad, label) {
    var armies = state.data.armies, cells = new Map(), groups = [], i;
    for (i = 0; i < armies.length; i++) {
      var a = armies[i], x = a.x * at.s + at.x, y = a.y * at.s + at.y;
      if (!inView(x, y, full)) { continue; }
      var key = Math.floor(x / CELL) * 65536 + Math.floor(y / CELL), group = cells.get(key);
      if (!group) { cells.set(key, group = { armies: [], x: 0, y: 0 }); groups.push(group); }
      group.armies.push(a); group.x += x; group.y += y;
    }
    groups.forEach(function (g) {
      var n = g.armies.length, a = g.armies[0], own = false;
      for (i = 0; i < n && !own; i++) { own = g.armies[i].own; }
      g.x /= n; g.y /= n;
      g.r = n > 1 ? 15 : Math.round(2 * Math.max(9, Math.min(15, 7 + Math.sqrt(a.m || 1) * 1.4))) / 2;
      var mark = marker(g.r, own, n > 1 ? String(n) : (a.m === null ? "?" : String(a.m)), n > 1 ? 3 : 2), side = 2 * g.r + 4;
      ctx.drawImage(mark, g.x - side / 2, g.y - side / 2, side, side);
      g.cx = g.x - pad.x; g.cy = g.y - pad.y;
      label.block(g.x, g.y, g.r + 1);
    });
    groups.forEach(function (g) {
      label.add(2, g.armies.length > 1 ? g.armies.length + " armies" : g.armies[0].n, g.x, g.y, g.r);
    });
    state.groups = groups;
  }

  function paintBattles(ctx, at, full, pad, label) {
    state.data.battles.forEach(function (b) {
      var x = b.x * at.s + at.x, y = b.y * at.s + at.y - 26, due = b.status === "due";
      if (!inView(x, y + 26, full)) { return; }
      ctx.save(); ctx.translate(x, y); ctx.rotate(Math.PI / 4);
      ctx.fillStyle = due ? "#d0694f" : "#6b655c"; ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
      ctx.fillRect(-10, -10, 20, 20); ctx.strokeRect(-10, -10, 20, 20); ctx.restore();
      ctx.fillStyle = "#fff"; ctx.fillText("⚔", x, y);
      label.block(x, y, 15);
      label.add(1, (due ? "Battle due, hour " : "Fought, hour ") + b.hour, x, y, 15, due ? "#a12a1e" : "#1f1d1a");
      state.battles.push({ battle: b, cx: x - pad.x, cy: y - pad.y, r: 16 });
    });
  }

  // Locations (a square, larger for a city) and Bases (a triangle), under the armies; their names come first.
  function paintLocations(ctx, at, full, pad, label) {
    state.data.bases.forEach(function (base) {
      var x = base.x * at.s + at.x, y = base.y * at.s + at.y;
      if (!inView(x, y, full)) { return; }
      ctx.beginPath(); ctx.moveTo(x, y - 9); ctx.lineTo(x + 8, y + 6); ctx.lineTo(x - 8, y + 6); ctx.closePath();
      ctx.fillStyle = "#5b3f8c"; ctx.fill(); ctx.lineWidth = 2; ctx.strokeStyle = "#fff"; ctx.stroke();
      state.places.push({ base: base, cx: x - pad.x, cy: y - pad.y, r: 9 });
    });
    state.data.locations.forEach(function (loc) {
      var x = loc.x * at.s + at.x, y = loc.y * at.s + at.y, half = { city: 9, town: 7 }[loc.size] || 6;
      if (!inView(x, y, full)) { return; }
      ctx.fillStyle = loc.holder ? "#f0c75e" : "#fffdf8"; ctx.fillRect(x - half, y - half, 2 * half, 2 * half);
      ctx.lineWidth = 2; ctx.strokeStyle = "#1f1d1a"; ctx.strokeRect(x - half, y - half, 2 * half, 2 * half);
      label.block(x, y, half + 1);
      label.add(0, loc.n, x, y, half + 3);
      state.places.push({ location: loc, cx: x - pad.x, cy: y - pad.y, r: half + 2 });
    });
  }

  // --- building the map once, then drawing each new version of the data
  function build(data) {
    bounds = L.latLngBounds(ll(0, data.h), ll(data.w, 0));
    // as tall as the map's picture at the page's width, up to most of the screen (CSS keeps a minimum)
    box.style.height = Math.round(Math.min(window.innerHeight * 0.62, box.clientWidth * data.h / data.w + 40)) + "px";
    map = L.map(box, { crs: L.CRS.Simple, zoomSnap: 0.25, attributionControl: false, zoomControl: false,
      maxBounds: bounds.pad(0.25) });
    L.control.zoom({ position: "bottomright" }).addTo(map);
    map.fitBounds(bounds);
    map.setMinZoom(map.getZoom() - 1); map.setMaxZoom(map.getZoom() + 6);
    layers.terrain = L.layerGroup().addTo(map);
    map.createPane("canvases").style.zIndex = 450;  // above the picture and terrain
    ["locations", "routes", "armies", "battles"].forEach(function (name) { layers[name] = L.layerGroup().addTo(map); });
    layers.canvas = new CanvasLayer(function (ctx, at, full, pad, size) {
      var label = labeller(ctx, pad, size);
      // the controls: layers at the top right, zoom at the bottom right (the top left stays the map's)
      label.block(pad.x + size.x - 30, pad.y + 30, 30); label.block(pad.x + size.x - 30, pad.y + size.y - 40, 40);
      state.groups = []; state.battles = []; state.places = [];
      if (map.hasLayer(layers.locations)) { paintLocations(ctx, at, full, pad, label); }
      if (map.hasLayer(layers.routes)) { paintRoutes(ctx, at, full, label); }
      if (map.hasLayer(layers.armies)) { paintArmies(ctx, at, full, pad, label); }
      if (map.hasLayer(layers.battles)) { paintBattles(ctx, at, full, pad, label); }
      label.draw();
    }).addTo(map);
    map.on("overlayadd overlayremove", function () { layers.canvas.redraw(); });
    layers.preview = L.layerGroup().addTo(map);
    L.control.layers(null, { "Terrain": layers.terrain, "Locations": layers.locations, "Routes": layers.routes,
      "Armies": layers.armies, "Battles": layers.battles }, { collapsed: true }).addTo(map);
    map.on("click", tapped);
    box.leafletMap = map;  // for the browser tests and benchmark, which tap points given in inches
  }

  function draw(data) {
    if (!map) { build(data); }
    if (picture) { picture.remove(); }
    picture = data.picture ? L.imageOverlay(data.picture, bounds, { interactive: false })
      : L.rectangle(bounds, { stroke: false, fillColor: "#b2c478", fillOpacity: 1, interactive: false });
    picture.addTo(map).bringToBack();
    layers.terrain.clearLayers();
    data.regions.forEach(function (r) {
      L.polygon(r.pts.map(function (p) { return ll(p[0], p[1]); }), { className: "terrain-" + r.k, weight: 1,
        fillOpacity: 0.3, interactive: false }).addTo(layers.terrain);
    });
    layers.canvas.redraw();
  }

  // --- what a tap on the map means: a Battle, an army or group, a location or Base, else (while ordering) a point
  function nearest(list, point) {
    return list.filter(function (g) { return Math.hypot(g.cx - point.x, g.cy - point.y) <= g.r + 8; })[0];
  }
  function tapped(e) {
    var battle = nearest(state.battles, e.containerPoint), group = nearest(state.groups, e.containerPoint);
    if (group && state.ordering && group.armies[0].id === state.ordering.id) { group = null; }  // its own spot
    if (battle) { showBattle(battle.battle); return; }
    if (group && group.armies.length > 1) { showGroup(group.armies); return; }
    if (group && !(state.ordering && !group.armies[0].own)) { showArmy(group.armies[0]); return; }
    if (state.ordering && group) { preview({ kind: "army", target_army: group.armies[0].id }); return; }
    var place = nearest(state.places, e.containerPoint);
    if (place && place.location) { showLocation(place.location); return; }
    if (place && !state.ordering) {
      open("<p>" + esc(place.base.n + ": +" + place.base.bonus + " Morale" + (place.base.spent ? " (used up today)" : "")) + "</p>");
      return;
    }
    if (state.ordering) {
      preview({ kind: "point", x: Math.round(e.latlng.lng * 100) / 100, y: Math.round(-e.latlng.lat * 100) / 100 });
    }
  }

  // --- the panel under the map: details and actions of what was tapped; `shown` is the army whose panel a new
  // version of the data redraws (none for anything else, so a poll never swaps back what the player left)
  function open(html, shown) {
    state.shown = shown || null;
    var from = document.activeElement, keep = panel.contains(from) || (from && from.closest && from.closest(".map-lists"));
    panel.innerHTML = html + "<p><button type=\"button\" class=\"link\" data-act=\"close\">Close</button></p>";
    panel.hidden = false;
    if (keep) { panel.focus({ preventScroll: true }); }  // a keyboard user goes on from what they chose
  }
  function close() {
    panel.hidden = true; state.ordering = null; state.shown = null; layers.preview.clearLayers();
  }

  function orderText(a) {
    if (!a.o) { return "No orders: it stands where it is."; }
    return a.k === "capture" ? "Captures " + a.to + " by hour " + a.at + "."
      : "Marching to " + a.to + ", arrives " + (a.k === "army" ? "about" : "at") + " hour " + a.at + ".";
  }
  function armyBattles(a) {
    return state.data.battles.filter(function (b) {
      return b.status === "due" && b.ids.indexOf(a.id) >= 0;
    });
  }
  function startLink(b, style) {
    if (!writable) { return ""; }
    return "<a class=\"" + (style || "") + "\" data-testid=\"start-battle\" href=\"" + box.dataset.battleStart + "?due=" + b.id +
      "\">Start the Battle</a>";
  }

  function showArmy(a) {
    state.ordering = null; layers.preview.clearLayers();
    var html = "<h2>" + esc(a.n) + "</h2><p>" + esc(a.c) + " · " + minis(a) +
      (a.seen !== undefined ? " · seen at hour " + a.seen : "") + "</p>";
    if (a.own) {
      html += "<p data-testid=\"army-order\">" + esc(orderText(a)) + "</p>" + (!writable ? "" : "<p class=\"actions\">" +
        "<button type=\"button\" class=\"primary\" data-act=\"order\" data-army=\"" + a.id + "\" data-testid=\"give-order\">Give an order</button>" +
        (a.o ? " <button type=\"button\" data-act=\"cancel\" data-order=\"" + a.o + "\">Cancel the order</button>" : "") + "</p>");
    }
    armyBattles(a).forEach(function (b) {
      html += "<p>Battle due at hour " + b.hour + (b.at ? " at " + esc(b.at) : "") + ". " + (state.data.gm ? startLink(b, "button") : "") + "</p>";
    });
    if (state.data.gm && writable) {
      html += "<form class=\"row\" data-act=\"reveal\" data-army=\"" + a.id + "\"><label class=\"grow\">Reveal to <select name=\"to_commander\">" +
        state.data.commanders.map(function (c) { return "<option value=\"" + c[0] + "\">" + esc(c[1]) + "</option>"; }).join("") +
        "</select></label><label>What <select name=\"what\"><option value=\"position\">position</option><option value=\"size\">size</option></select></label>" +
        "<button type=\"submit\">Reveal</button></form>";
    }
    open(html, { army: a.id });
  }

  function showGroup(armies) {
    open("<h2>" + armies.length + " armies here</h2><ul class=\"plain\">" + armies.map(function (a) {
      return "<li><button type=\"button\" class=\"link\" data-act=\"army\" data-army=\"" + a.id + "\">" + esc(a.n) +
        "</button> · " + esc(a.c) + " · " + minis(a) + "</li>";
    }).join("") + "</ul>");
  }

  function showLocation(loc) {
    if (state.ordering) { return preview({ kind: "location", location: loc.id }); }
    var html = "<h2>" + esc(loc.n) + "</h2><p>" + esc(loc.size) + (loc.holder ? " held by " + esc(loc.holder) : ", held by no one") +
      (loc.progress ? " · Capture " + loc.progress + "/" + loc.threshold : "") + "</p>";
    state.data.battles.forEach(function (b) {
      if (b.status === "due" && b.at === loc.n) { html += "<p>Battle due at hour " + b.hour + ". " + (state.data.gm ? startLink(b, "button") : "") + "</p>"; }
    });
    open(html);
  }

  function showBattle(b) {
    open("<h2>" + (b.status === "due" ? "Battle due" : "Battle fought") + ", hour " + b.hour + "</h2><p data-testid=\"battle-sides\">" +
      b.armies.map(esc).join(" against ") + (b.armies.length < 2 ? " against an enemy army" : "") + (b.at ? " at " + esc(b.at) : "") + ".</p>" +
      (b.status === "due" && state.data.gm ? "<p>" + startLink(b, "button") + "</p>" : ""));
  }

  // --- orders: choose a destination, preview the route and the hour, confirm
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  // The answer's JSON; `{queued: true}` when the service worker kept the request for later; an error marked
  // `offline` when the server could not be reached.
  function api(method, url, body, key) {
    var headers = { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept": "application/json" };
    if (key) { headers["Idempotency-Key"] = key; }
    return fetch(url, { method: method, credentials: "same-origin", body: body ? JSON.stringify(body) : undefined,
      headers: headers })
      .catch(function () {
        var error = new Error("No signal: try again when the phone is online.");
        error.offline = true;
        throw error;
      })
      .then(function (response) {
        if (response.headers.get("Muster-Queued")) { return { queued: true }; }
        if (response.status === 204) { return {}; }
        return response.json().then(function (json) {
          if (response.ok) { return json; }
          var first = json.detail || Object.keys(json).map(function (k) { return [].concat(json[k]).join(" "); }).join(" ");
          throw new Error(first || "Something went wrong: try again.");
        });
      });
  }
  function failed(error) { open("<p class=\"error\" role=\"alert\">" + esc(error.message) + "</p>"); }

  function startOrder(armyId) {
    var a = byId(state.data.armies, armyId);
    layers.preview.clearLayers();
    open("<p data-testid=\"order-hint\">Tap where <strong>" + esc(a.n) + "</strong> should go: a point, a location or an army.</p>" +
      (state.data.locations.length ? "<form class=\"row\" data-act=\"to-location\"><label class=\"grow\">Or march to " +
        "<select name=\"location\">" + state.data.locations.map(function (loc) {
          return "<option value=\"" + loc.id + "\">" + esc(loc.n) + "</option>";
        }).join("") + "</select></label><button type=\"submit\">See the route</button></form>" : "") +
      "<p><button type=\"button\" data-act=\"capture\">Capture the location it stands at</button></p>");
    state.ordering = a; state.picked = null;
  }

  function confirmButtons(a) {
    return "<p class=\"actions\"><button type=\"button\" class=\"primary\" data-act=\"confirm\" " +
      "data-testid=\"confirm-order\">Confirm the order</button> <button type=\"button\" data-act=\"order\" data-army=\"" +
      a.id + "\">Choose again</button></p>";
  }

  // Offline: the destination alone, said plainly, may be confirmed; the server plans it when the order arrives.
  function previewOffline(a, body) {
    state.picked = body; state.key = newKey();
    layers.preview.clearLayers();
    if (body.kind === "point") { L.circleMarker(ll(body.x, body.y), { radius: 6, className: "preview-end" }).addTo(layers.preview); }
    panel.innerHTML = "<p data-testid=\"preview-offline\">You are offline: the route and the arrival hour of <strong>" +
      esc(a.n) + "</strong> will be worked out when the order reaches the server. You can confirm this destination " +
      "now; the phone keeps the order and sends it when the signal returns.</p>" + confirmButtons(a);
    panel.hidden = false;
    state.ordering = a;
  }

  function preview(target) {
    var a = state.ordering, body = Object.assign({ army: a.id }, target);
    return api("POST", "/api/move-orders/preview/", body).then(function (plan) {
      state.picked = body; state.key = newKey();  // one key per confirmation, however often it is tapped
      layers.preview.clearLayers();
      L.polyline(plan.path.map(function (p) { return ll(p[0], p[1]); }), { className: "preview-route", weight: 4 })
        .addTo(layers.preview);
      var end = plan.path[plan.path.length - 1];
      L.circleMarker(ll(end[0], end[1]), { radius: 6, className: "preview-end" }).addTo(layers.preview);
      var when = plan.kind === "capture" ? "captures it by the end of hour " : "arrives " + (plan.kind === "army" ? "about" : "at") + " the end of hour ";
      panel.innerHTML = "<p data-testid=\"preview-text\"><strong>" + esc(a.n) + "</strong> " + when +
        "<strong data-testid=\"arrival-hour\">" + plan.arrival_hour + "</strong> (" + plural(plan.moves, "Move") +
        "; now hour " + state.data.hour + ").</p>" + confirmButtons(a);
      panel.hidden = false;
      state.ordering = a;
    }).catch(function (error) {
      if (error.offline) { previewOffline(a, body); } else { failed(error); state.ordering = a; }
    });
  }

  function confirmOrder() {
    var a = state.ordering;
    api("POST", "/api/move-orders/", state.picked, state.key).then(function (order) {
      close();
      var text = order.queued ? "Order kept: it will be sent when the signal returns." : order.sentence;
      open("<p data-testid=\"" + (order.queued ? "order-kept" : "order-sent") + "\">" + esc(text) + "</p>");
      announce(text);
      if (!order.queued) { refresh(true); }
    }).catch(failed);
  }

  panel.addEventListener("click", function (e) {
    var button = e.target.closest("[data-act]");
    if (!button || button.tagName === "FORM") { return; }
    var act = button.dataset.act;
    if (act === "close") { close(); }
    if (act === "order") { startOrder(+button.dataset.army); }
    if (act === "capture") { preview({ kind: "capture" }); }
    if (act === "confirm") { confirmOrder(); }
    if (act === "army") { showArmy(byId(state.data.armies, +button.dataset.army)); }
    if (act === "cancel") {
      api("DELETE", "/api/move-orders/" + button.dataset.order + "/").then(function () {
        announce("The order is cancelled."); close(); refresh(true);
      }).catch(failed);
    }
  });
  panel.addEventListener("submit", function (e) {
    e.preventDefault();
    var form = e.target;
    if (form.dataset.act === "to-location") { return preview({ kind: "location", location: +form.elements.location.value }); }
    api("POST", "/api/reveals/", { army: +form.dataset.army, to_commander: +form.elements.to_commander.value,
      what: form.elements.what.value }).then(function () {
      announce("Revealed.");
      form.insertAdjacentHTML("afterend", "<p role=\"status\">Revealed: the player now sees it.</p>");
    }).catch(failed);
  });

  // --- the lists under the map: the same data, reachable by keyboard. Thousands of rows cost the browser far more
  // to lay out than the map to draw, so a long list of armies starts folded (its heading says how many; opening it
  // lays it out), and the lists are filled in the task after the map is drawn, so the map shows first.
  var LIST_OPEN_MAX = 300, foldChecked = false;
  function fill(parts) {
    parts.forEach(function (part) { part.el.innerHTML = part.rows.join("") || "<li class=\"muted\">None.</li>"; });
  }
  function lists(data) {
    document.getElementById("armies-count").textContent = "(" + data.armies.length + ")";
    if (!foldChecked) { document.getElementById("armies-list").open = data.armies.length <= LIST_OPEN_MAX; }
    foldChecked = true;  // from then on it stays as the reader leaves it
    fill([{ el: document.getElementById("list-battles"), rows: data.battles.map(function (b, i) {
      return "<li><button type=\"button\" class=\"link\" data-show=\"battle\" data-index=\"" + i + "\">Hour " + b.hour + ": " +
        b.armies.map(esc).join(" v ") + (b.at ? " at " + esc(b.at) : "") + "</button> · " + (b.status === "due" ? "due" : "fought") +
        (b.status === "due" && data.gm ? " · " + startLink(b) : "") + "</li>";
    }) }, { el: document.getElementById("list-armies"), rows: data.armies.map(function (a, i) {
      return "<li data-testid=\"list-army-" + a.id + "\"><button type=\"button\" class=\"link\" data-show=\"army\" data-index=\"" + i + "\">" +
        esc(a.n) + "</button> · " + esc(a.c) + " · " + minis(a) + (a.o ? " · " + esc(orderText(a)) : "") + "</li>";
    }) }, { el: document.getElementById("list-locations"), rows: data.locations.map(function (loc, i) {
      return "<li><button type=\"button\" class=\"link\" data-show=\"location\" data-index=\"" + i + "\">" + esc(loc.n) +
        "</button> · " + esc(loc.size) + (loc.holder ? " · " + esc(loc.holder) : "") + "</li>";
    }) }]);
  }
  document.querySelector(".cards").addEventListener("click", function (e) {
    var button = e.target.closest("[data-show]");
    if (!button) { return; }
    var kind = button.dataset.show, item = state.data[kind === "army" ? "armies" : kind + "s"][+button.dataset.index];
    map.setView(ll(item.x, item.y), Math.max(map.getZoom(), map.getMinZoom() + 3));
    ({ army: showArmy, location: showLocation, battle: showBattle })[kind](item);
    box.scrollIntoView({ block: "start" });
  });

  // --- what changed since the last version, said aloud
  function changes(before, after) {
    var said = [], was = {};
    before.armies.forEach(function (a) { was[a.id] = a; });
    after.armies.forEach(function (a) {
      var old = was[a.id];
      if (old && old.o && old.k !== "capture" && !a.o) { said.push(a.n + " arrived at " + old.to + "."); }
    });
    var known = before.battles.map(function (b) { return b.id + b.status; });
    after.battles.forEach(function (b) {
      if (b.status === "due" && known.indexOf(b.id + b.status) < 0) {
        said.push("A Battle is due at hour " + b.hour + ": " + b.armies.join(" against ") + (b.at ? " at " + b.at : "") + ".");
      }
    });
    return said.join(" ");
  }

  // The changes since the version shown (armies set or gone by id, other parts whole) applied to it.
  function merged(old, changes) {
    var data = Object.assign({}, old, changes), gone = {}, index = {};
    changes.armies.gone.forEach(function (id) { gone[id] = true; });
    data.armies = old.armies.filter(function (a) { return !gone[a.id]; });
    data.armies.forEach(function (a, i) { index[a.id] = i; });
    changes.armies.set.forEach(function (a) {
      if (a.id in index) { data.armies[index[a.id]] = a; } else { data.armies.push(a); }
    });
    return data;
  }

  function show(json) {
    var before = state.data;
    if (json.base && (!before || json.base !== state.v)) { return refresh(true); }  // not the version shown
    state.data = json.base ? merged(before, json.changes) : json.map;
    state.v = json.v; state.t = json.t;
    draw(state.data);
    var shown = state.data;
    setTimeout(function () { if (shown === state.data) { lists(shown); } }, 0);  // after the map is drawn
    var hour = state.data.event ? state.data.event.name + " · hour " + state.data.hour : "";
    document.getElementById("map-hour").innerHTML = hour ? "<span class=\"badge\">" + esc(hour) + "</span>" : "";
    if (before) {
      var said = changes(before, state.data);
      if (said) { announce(said); }
    }
    if (state.shown && !state.ordering) {
      var a = byId(state.data.armies, state.shown.army);
      if (a) { showArmy(a); }
    }
  }

  function refresh(force) {
    var url = box.dataset.src + (state.v && !force ? "?v=" + state.v + "&t=" + encodeURIComponent(state.t) : "");
    return fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } }).then(function (response) {
      if (response.status === 200) { return response.json().then(show); }
    }).catch(function () { /* patchy signal: the next poll tries again */ });
  }

  refresh(true);
  // A pushed "this changed" (static/js/live.js) fetches at once; the poll stands in while no socket is open.
  box.addEventListener("live", function () { refresh(false); });
  setInterval(function () {
    if (!document.hidden && !(window.musterLive && window.musterLive.connected)) { refresh(false); }
  }, POLL_MS);
})();
