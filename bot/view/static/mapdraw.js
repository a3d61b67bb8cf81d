// The map and what stands and happens on it, drawn in SVG: shared by the viewer's page
// (app.js) and the person's seat (bot/human/static/human.js).  The map (province shapes,
// unit anchors, coasts, centres, home centres, adjacencies) is the picture of
// bot/view/mappicture.py: the standard map's geometry or a layout computed from any map's
// adjacencies, in one shape; units and orders are in the JSON of bot/view/timeline.py.
// A plain ES module.

export const SVG = "http://www.w3.org/2000/svg";
export const UNIT_RADIUS = 8.5;
export const DISLODGED_OFFSET = 11;
export const ARROW_GAP = 11;
const LAYERS = ["provinces", "impassable", "coastline", "edges", "marks", "labels", "orders", "units", "crosses", "sites"];
const HEADS = [["move", "#1b1b1b"], ["failed", "#c62828"], ["retreat", "#e65100"], ["support", "#1b7a2e"],
               ["convoy", "#1f5fbf"], ["option", "#e65100"], ["hint", "#7b1fa2"]];
const GROUND = { sea: "#b9d5ea", coast: "#f3ead3", land: "#eadfc2" };

export function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  if (parent) parent.appendChild(node);
  return node;
}

export function titleOf(text) {
  const title = document.createElementNS(SVG, "title");
  title.textContent = text;
  return title;
}

// Orders into ``box`` a line each, under their power's name wherever the power changes;
// ``line(order, div, power)`` fills an order's line.  The viewer's and the seat's order lists.
export function ordersByPower(box, orders, colourOf, line) {
  let last = null;
  for (const o of orders) {
    const power = o.unit ? o.unit.power : o.power;
    if (power !== last) {
      const h = document.createElement("div");
      h.className = "power";
      h.style.color = colourOf(power);
      h.textContent = power;
      box.appendChild(h);
      last = power;
    }
    const div = document.createElement("div");
    line(o, div, power);
    box.appendChild(div);
  }
}

export function mix(hex, base, weight) {
  const parse = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [a, b] = [parse(hex), parse(base)];
  const c = a.map((v, i) => Math.round(v * weight + b[i] * (1 - weight)));
  return "#" + c.map((v) => v.toString(16).padStart(2, "0")).join("");
}

export function shorten(from, to, gapStart, gapEnd) {
  const dx = to[0] - from[0], dy = to[1] - from[1];
  const d = Math.hypot(dx, dy) || 1;
  return [[from[0] + dx * gapStart / d, from[1] + dy * gapStart / d],
          [to[0] - dx * gapEnd / d, to[1] - dy * gapEnd / d]];
}

// One map in one <svg>: its layers, and the drawing of units and orders on them.
// ``colourOf(power)`` gives each power's colour.
export class MapDrawing {
  constructor(map, svg, colourOf) {
    this.map = map;
    this.colourOf = colourOf;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${map.width} ${map.height}`);
    svg.dataset.map = map.name || "";
    svg.dataset.layout = map.layout || "";
    const defs = el("defs", {}, svg);
    for (const [name, colour] of HEADS) {
      const marker = el("marker", { id: `head-${name}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
                                    markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
      el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, marker);
    }
    this.layers = {};
    for (const name of LAYERS) this.layers[name] = el("g", { id: `layer-${name}` }, svg);
    this.provinces = {};
    for (const [code, p] of Object.entries(map.provinces)) {
      this.provinces[code] = el("path", { d: p.path, class: `province ${p.kind}`, "data-province": code },
                                this.layers.provinces);
    }
    for (const [name, d] of Object.entries(map.impassable)) {
      el("path", { d, class: "impassable" }, this.layers.impassable).appendChild(titleOf(name));
    }
    el("path", { id: "coastline", d: map.land }, this.layers.coastline);
    // A computed layout shows which provinces are adjacent (its shapes only suggest it).
    if (map.layout === "computed") {
      for (const [a, b] of map.edges || []) {
        const [pa, pb] = [map.provinces[a], map.provinces[b]];
        if (!pa || !pb) continue;
        el("line", { x1: pa.unit[0], y1: pa.unit[1], x2: pb.unit[0], y2: pb.unit[1], class: "edge",
                     "data-edge": `${a}-${b}` }, this.layers.edges);
      }
    }
    for (const [code, p] of Object.entries(map.provinces)) {
      const [x, y] = p.label;
      el("text", { x, y, class: `label ${p.kind}` }, this.layers.labels).textContent = code;
      for (const [coast, [cx, cy]] of Object.entries(p.coasts || {})) {
        el("circle", { cx, cy, r: 10, class: "coast-mark" }, this.layers.marks);
        el("text", { x: cx, y: cy + 19, class: "label sea" }, this.layers.labels).textContent = coast.slice(0, 2).toLowerCase();
      }
      if (p.sc && (p.homes || []).length) {
        // A home centre: a ring in its power's colour (the first's, if several share it).
        el("circle", { cx: p.sc[0], cy: p.sc[1], r: 7, class: "home-ring", "data-province": code,
                       "data-home": p.homes.join(" ") }, this.layers.marks)
          .appendChild(titleOf(`home of ${p.homes.join(", ")}`));
      }
      if (p.sc) el("circle", { cx: p.sc[0], cy: p.sc[1], r: 4.2, class: "sc", "data-province": code }, this.layers.marks);
    }
  }

  anchor(province, coast = null) {
    const p = this.map.provinces[province];
    if (!p) return null;
    if (coast && p.coasts && p.coasts[coast]) return p.coasts[coast];
    return p.unit;
  }

  // Provinces tinted by their owner's colour, centres' dots filled with it (``centres``: power → list).
  paint(centres) {
    const owner = {};
    for (const [power, cs] of Object.entries(centres || {})) for (const c of cs) owner[c] = power;
    for (const [code, path] of Object.entries(this.provinces)) {
      const base = GROUND[this.map.provinces[code].kind];
      const who = owner[code];
      path.setAttribute("fill", who && who !== "UNO" ? mix(this.colourOf(who), base, 0.42) : base);
    }
    for (const ring of this.layers.marks.querySelectorAll("circle.home-ring")) {
      ring.setAttribute("stroke", this.colourOf(ring.dataset.home.split(" ")[0]));
    }
    for (const mark of this.layers.marks.querySelectorAll("circle.sc")) {
      const who = owner[mark.dataset.province] || "UNO";
      mark.dataset.owner = who;
      mark.setAttribute("fill", this.colourOf(who));
    }
    return owner;
  }

  clear(...names) {
    for (const name of names) this.layers[name].replaceChildren();
  }

  // A unit's glyph; ``classes`` are added to it, ``ring`` draws a ring around it.  Returns the glyph.
  // None if the map has no such province (a game heard before its map).
  drawUnit(unit, { dislodged = false, ghost = false, classes = [], ring = false } = {}) {
    const at = this.anchor(unit.province, unit.coast);
    if (!at) return null;
    let [x, y] = at;
    if (dislodged) { x += DISLODGED_OFFSET; y += DISLODGED_OFFSET * 0.7; }
    const cls = ["unit", dislodged ? "dislodged" : "", ghost ? "ghost" : "", ...classes].filter(Boolean).join(" ");
    const g = el("g", { class: cls, "data-power": unit.power, "data-province": unit.province,
                        "data-kind": unit.kind, "data-dislodged": dislodged ? "1" : "0",
                        transform: `translate(${x},${y})` }, this.layers.units);
    if (ring) el("circle", { class: "ring", r: UNIT_RADIUS + 4 }, g);
    const fill = this.colourOf(unit.power);
    if (unit.kind === "FLT") {
      const r = UNIT_RADIUS;
      el("path", { class: "body", fill, d: `M${-r * 1.25},${-r * 0.25} L${r * 1.25},${-r * 0.25} L${r * 0.8},${r * 0.8} L${-r * 0.8},${r * 0.8} Z M${-r * 0.15},${-r * 0.25} L${-r * 0.15},${-r * 1.2} L${r * 0.75},${-r * 0.35} Z` }, g);
      el("text", { x: 0, y: r * 0.3 }, g).textContent = "F";
    } else {
      el("circle", { class: "body", fill, r: UNIT_RADIUS }, g);
      el("text", { x: 0, y: 0.5 }, g).textContent = "A";
    }
    g.position = [x, y];
    return g;
  }

  // Every unit of a phase; the glyphs' positions by province (a dislodged one as "PROV*").
  drawUnits(units) {
    const positions = {};
    for (const unit of units) {
      const dislodged = unit.retreats !== null;
      const glyph = this.drawUnit(unit, { dislodged });
      if (glyph) positions[unit.province + (dislodged ? "*" : "")] = glyph.position;
    }
    return positions;
  }

  line(points, cls, head) {
    const d = points.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
    return el("path", { d, class: `order ${cls}`, "marker-end": head ? `url(#head-${head})` : null },
              this.layers.orders);
  }

  cross(at, size = 5) {
    const [x, y] = at;
    el("path", { class: "cross", d: `M${x - size},${y - size} L${x + size},${y + size} M${x - size},${y + size} L${x + size},${y - size}` },
       this.layers.crosses);
  }

  unitPos(unit, positions) {
    return positions[unit.province] || this.anchor(unit.province, unit.coast);
  }

  // One order.  ``result`` (ORD's tokens) marks failures; none is an order not yet played.
  // ``style`` ("mine", "hint") is a class added to what is drawn; a hint's arrows are its own.
  drawOrder(order, { positions = {}, result = order.result || null, style = "" } = {}) {
    if (order.type === "waive") return;
    const isRetreat = order.type === "retreat" || order.type === "disband";
    let from = isRetreat ? positions[order.unit.province + "*"] : this.unitPos(order.unit, positions);
    if (!from) {
      const at = this.anchor(order.unit.province, order.unit.coast);
      if (!at) return;  // a province the map does not have
      const [x, y] = at;
      from = isRetreat ? [x + DISLODGED_OFFSET, y + DISLODGED_OFFSET * 0.7] : [x, y];
    }
    const ok = result === null || result.includes("SUC");
    const extra = (style ? " " + style : "") + (ok ? "" : " failed");
    const dislodged = result !== null && result.includes("RET") && order.type !== "retreat";
    const layer = this.layers.orders;
    if (order.type === "hold") {
      el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 4, class: `order hold${style ? " " + style : ""}` }, layer);
    } else if (order.type === "move" || order.type === "retreat") {
      const to = this.anchor(order.to.province, order.to.coast);
      const stops = [from, ...(order.via || []).map((p) => this.anchor(p)), to];
      if (stops.some((stop) => !stop)) return;
      const [a] = shorten(stops[0], stops[1], ARROW_GAP, 0);
      const [, b] = shorten(stops[stops.length - 2], stops[stops.length - 1], 0, ARROW_GAP);
      const kind = order.type === "retreat" ? "retreat" : "move";
      const head = style === "hint" ? "hint" : ok ? kind : "failed";
      this.line([a, ...stops.slice(1, -1), b], kind + extra, head);
      if (!ok) this.cross(b, 4);
    } else if (order.type === "convoy") {
      // The convoyed army's arrow runs through the fleets; each fleet gets a ring.
      el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 5, class: `order convoy${extra}` }, layer);
      if (!ok) this.cross(from, 6);
    } else if (order.type === "support") {
      const target = this.unitPos(order.supported, positions);
      if (!target || (order.to && !this.anchor(order.to))) return;
      let end = target;
      if (order.to) {
        const dest = this.anchor(order.to);
        end = [target[0] + (dest[0] - target[0]) * 0.55, target[1] + (dest[1] - target[1]) * 0.55];
      }
      const [a, b] = shorten(from, end, ARROW_GAP, order.to ? 2 : UNIT_RADIUS + 5);
      this.line([a, b], "support" + extra, null);
      el("circle", { cx: b[0], cy: b[1], r: 2.6, class: `order support${extra} tip` }, layer);
      if (!ok) this.cross([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], 4);
    } else if (order.type === "disband" || order.type === "remove") {
      this.cross(from, 9);
    } else if (order.type === "build") {
      this.drawUnit(order.unit, { ghost: true });
      el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 4, class: "build-mark" }, layer);
    }
    if (dislodged) this.cross(from, 9);
  }

  // One phase as it was played: its units, every order with its result, the retreat options
  // of dislodged units.  ``orders`` (default: the phase's own) may be another set to draw.
  drawPhase(phase, orders = phase.orders) {
    const positions = this.drawUnits(phase.units);
    for (const order of orders) this.drawOrder(order, { positions });
    for (const unit of phase.units) {
      if (unit.retreats !== null) this.drawRetreatOptions(unit, positions);
    }
    return positions;
  }

  // A dislodged unit's retreat options, dashed (a cross where it has none).
  drawRetreatOptions(unit, positions) {
    const from = positions[unit.province + "*"];
    if (!from) return;
    for (const option of unit.retreats) {
      const to = this.anchor(option.province, option.coast);
      if (!to) continue;
      const [a, b] = shorten(from, to, ARROW_GAP, ARROW_GAP);
      this.line([a, b], "option", "option");
    }
    if (unit.retreats.length === 0) this.cross(from, 9);
  }
}
