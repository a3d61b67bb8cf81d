// daide-mcts human: one person's seat in a game.  The seat's state comes from /api/state
// (polled); orders go to /api/draft and /api/submit; every request carries the seat's key
// (from the page's address).  The map is the viewer's (/static/standard-map.json) and is
// drawn the way the viewer draws it.  No build step: a plain ES module.

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const WARN_SECONDS = 15;
const UNIT_RADIUS = 8.5;
const DISLODGED_OFFSET = 11;
const ARROW_GAP = 11;
const SEASON_NAMES = { SPR: "Spring", SUM: "Summer retreats", FAL: "Fall", AUT: "Fall retreats", WIN: "Winter adjustments" };
const COLOURS = { AUS: "#c62828", ENG: "#6a1b9a", FRA: "#1e88e5", GER: "#424242", ITA: "#2e7d32", RUS: "#9e9e9e", TUR: "#f9a825", UNO: "#ffffff" };
const KEY = new URLSearchParams(location.search).get("key") || "";

const state = {
  map: null, seat: null, version: -1, turn: null, draft: {}, selected: null,
  fetchedAt: 0, showResults: false, busy: false,
};

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function colourOf(power) {
  const colours = state.seat ? state.seat.game.meta.colours : {};
  return colours[power] || COLOURS[power] || "#9e9e9e";
}

function mix(hex, base, weight) {
  const parse = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
  const [a, b] = [parse(hex), parse(base)];
  return "#" + a.map((v, i) => Math.round(v * weight + b[i] * (1 - weight)).toString(16).padStart(2, "0")).join("");
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// --- talking to the seat ------------------------------------------------------------------

async function api(path, body) {
  const options = { headers: { "X-Seat-Key": KEY } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (response.status === 204) return null;
  if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
  return response.json();
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

// --- the map ------------------------------------------------------------------------------

function anchor(province, coast = null) {
  const p = state.map.provinces[province];
  if (!p) return null;
  if (coast && p.coasts && p.coasts[coast]) return p.coasts[coast];
  return p.unit;
}

function buildMap() {
  const map = state.map;
  const svg = $("map");
  svg.setAttribute("viewBox", `0 0 ${map.width} ${map.height}`);
  const defs = el("defs", {}, svg);
  for (const [name, colour] of [["move", "#1b1b1b"], ["failed", "#c62828"], ["retreat", "#e65100"],
                                ["hint", "#7b1fa2"], ["option", "#e65100"]]) {
    const marker = el("marker", { id: `head-${name}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
                                  markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, marker);
  }
  state.layers = {};
  for (const name of ["provinces", "impassable", "coastline", "marks", "labels", "orders", "units", "crosses", "sites"]) {
    state.layers[name] = el("g", { id: `layer-${name}` }, svg);
  }
  for (const [code, p] of Object.entries(map.provinces)) {
    const path = el("path", { d: p.path, class: `province ${p.kind}`, "data-province": code }, state.layers.provinces);
    path.addEventListener("click", (e) => openMenu(code, e));
  }
  for (const d of Object.values(map.impassable)) el("path", { d, class: "impassable" }, state.layers.impassable);
  el("path", { id: "coastline", d: map.land }, state.layers.coastline);
  for (const [code, p] of Object.entries(map.provinces)) {
    el("text", { x: p.label[0], y: p.label[1], class: `label ${p.kind}` }, state.layers.labels).textContent = code;
    for (const [coast, [cx, cy]] of Object.entries(p.coasts || {})) {
      el("circle", { cx, cy, r: 10, class: "coast-mark" }, state.layers.marks);
      el("text", { x: cx, y: cy + 19, class: "label sea" }, state.layers.labels).textContent = coast.slice(0, 2).toLowerCase();
    }
    if (p.sc) el("circle", { cx: p.sc[0], cy: p.sc[1], r: 4.2, class: "sc", "data-province": code }, state.layers.marks);
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });
}

function paintProvinces(centres) {
  const owner = {};
  for (const [power, cs] of Object.entries(centres || {})) for (const c of cs) owner[c] = power;
  for (const path of state.layers.provinces.children) {
    const p = state.map.provinces[path.dataset.province];
    const base = p.kind === "sea" ? "#b9d5ea" : p.kind === "coast" ? "#f3ead3" : "#eadfc2";
    const who = owner[path.dataset.province];
    path.setAttribute("fill", who && who !== "UNO" ? mix(colourOf(who), base, 0.42) : base);
  }
  for (const mark of state.layers.marks.querySelectorAll("circle.sc")) {
    mark.setAttribute("fill", colourOf(owner[mark.dataset.province] || "UNO"));
  }
}

function drawUnit(unit, { dislodged = false, ghost = false, mine = false, key = null } = {}) {
  let [x, y] = anchor(unit.province, unit.coast);
  if (dislodged) { x += DISLODGED_OFFSET; y += DISLODGED_OFFSET * 0.7; }
  const cls = ["unit", dislodged ? "dislodged" : "", ghost ? "ghost" : "", mine ? "mine" : "",
               key && key === state.selected ? "selected" : ""].join(" ").replace(/\s+/g, " ").trim();
  const g = el("g", { class: cls, "data-power": unit.power, "data-province": unit.province, "data-kind": unit.kind,
                      "data-dislodged": dislodged ? "1" : "0", transform: `translate(${x},${y})` }, state.layers.units);
  if (mine) el("circle", { class: "ring", r: UNIT_RADIUS + 4 }, g);
  const fill = colourOf(unit.power);
  if (unit.kind === "FLT") {
    const r = UNIT_RADIUS;
    el("path", { class: "body", fill, d: `M${-r * 1.25},${-r * 0.25} L${r * 1.25},${-r * 0.25} L${r * 0.8},${r * 0.8} L${-r * 0.8},${r * 0.8} Z M${-r * 0.15},${-r * 0.25} L${-r * 0.15},${-r * 1.2} L${r * 0.75},${-r * 0.35} Z` }, g);
    el("text", { x: 0, y: r * 0.3 }, g).textContent = "F";
  } else {
    el("circle", { class: "body", fill, r: UNIT_RADIUS }, g);
    el("text", { x: 0, y: 0.5 }, g).textContent = "A";
  }
  if (mine && key) g.addEventListener("click", (e) => { e.stopPropagation(); openMenu(key, e); });
  return [x, y];
}

function shorten(from, to, gapStart, gapEnd) {
  const dx = to[0] - from[0], dy = to[1] - from[1];
  const d = Math.hypot(dx, dy) || 1;
  return [[from[0] + dx * gapStart / d, from[1] + dy * gapStart / d], [to[0] - dx * gapEnd / d, to[1] - dy * gapEnd / d]];
}

function line(points, cls, head) {
  const d = points.map((p, i) => `${i ? "L" : "M"}${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  return el("path", { d, class: `order ${cls}`, "marker-end": head ? `url(#head-${head})` : null }, state.layers.orders);
}

function cross(at, size = 5) {
  const [x, y] = at;
  el("path", { class: "cross", d: `M${x - size},${y - size} L${x + size},${y + size} M${x - size},${y + size} L${x + size},${y - size}` }, state.layers.crosses);
}

// One order: as the viewer draws it; ``style`` is "mine", "hint" or "" (a result, with ``result``).
function drawOrder(order, style, result = null) {
  if (!order || order.type === "waive") return;
  const dislodgedUnit = order.type === "retreat" || order.type === "disband";
  let from = anchor(order.unit.province, order.unit.coast);
  if (dislodgedUnit) from = [from[0] + DISLODGED_OFFSET, from[1] + DISLODGED_OFFSET * 0.7];
  const ok = result === null || result.includes("SUC");
  const extra = (style ? " " + style : "") + (ok ? "" : " failed");
  const head = style === "hint" ? "hint" : ok ? (order.type === "retreat" ? "retreat" : "move") : "failed";
  if (order.type === "hold") {
    el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 4, class: `order hold${extra}` }, state.layers.orders);
  } else if (order.type === "move" || order.type === "retreat") {
    const to = anchor(order.to.province, order.to.coast);
    const stops = [from, ...(order.via || []).map((p) => anchor(p)), to];
    const [a] = shorten(stops[0], stops[1], ARROW_GAP, 0);
    const [, b] = shorten(stops[stops.length - 2], stops[stops.length - 1], 0, ARROW_GAP);
    line([a, ...stops.slice(1, -1), b], (order.type === "retreat" ? "retreat" : "move") + extra, head);
    if (!ok) cross(b, 4);
  } else if (order.type === "convoy") {
    el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 5, class: `order convoy${extra}` }, state.layers.orders);
  } else if (order.type === "support") {
    const target = anchor(order.supported.province, order.supported.coast);
    let end = target;
    if (order.to) {
      const dest = anchor(order.to);
      end = [target[0] + (dest[0] - target[0]) * 0.55, target[1] + (dest[1] - target[1]) * 0.55];
    }
    const [a, b] = shorten(from, end, ARROW_GAP, order.to ? 2 : UNIT_RADIUS + 5);
    line([a, b], "support" + extra, null);
    el("circle", { cx: b[0], cy: b[1], r: 2.6, class: `order support tip${extra}` }, state.layers.orders);
  } else if (order.type === "disband" || order.type === "remove") {
    cross(from, 9);
  } else if (order.type === "build") {
    drawUnit(order.unit, { ghost: true });
    el("circle", { cx: from[0], cy: from[1], r: UNIT_RADIUS + 4, class: "build-mark" }, state.layers.orders);
  }
  if (result && result.includes("RET") && order.type !== "retreat") cross(from, 9);
}

function lastResults() {
  const game = state.seat.game;
  for (let i = game.count - 1; i >= 0; i--) {
    const phase = game.phases[String(i)];
    if (phase && phase.orders.length) return phase;
  }
  return null;
}

function drawBoard() {
  const seat = state.seat;
  for (const name of ["orders", "units", "crosses", "sites"]) state.layers[name].replaceChildren();
  const game = seat.game;
  const latest = game.count ? game.phases[String(game.count - 1)] : null;
  paintProvinces(latest ? latest.centres : {});
  if (state.showResults) {
    const phase = lastResults();
    if (phase) {
      for (const u of phase.units) drawUnit(u, { dislodged: u.retreats !== null });
      for (const o of phase.orders) drawOrder(o, "", o.result);
    }
    return;
  }
  const phase = seat.phase;
  const units = phase ? phase.units : latest ? latest.units : [];
  const mine = new Set(phase ? phase.choices.options.map((o) => o.key) : []);
  for (const u of units) {
    const dislodged = u.retreats !== null;
    const isMine = phase && mine.has(u.province) && (phase.choices.kind !== "retreat" || dislodged);
    drawUnit(u, { dislodged, mine: isMine, key: isMine ? u.province : null });
    if (dislodged) {
      const from = anchor(u.province, u.coast);
      const at = [from[0] + DISLODGED_OFFSET, from[1] + DISLODGED_OFFSET * 0.7];
      for (const r of u.retreats) line(shorten(at, anchor(r.province, r.coast), ARROW_GAP, ARROW_GAP), "option", "option");
    }
  }
  if (!phase) return;
  for (const option of phase.choices.options) {
    if (option.unit || option.key === "WVE") continue;
    const [x, y] = anchor(option.key);
    const site = el("circle", { cx: x, cy: y, r: UNIT_RADIUS + 3, "data-site": option.key,
                                class: "site" + (state.selected === option.key ? " selected" : "") }, state.layers.sites);
    site.addEventListener("click", (e) => { e.stopPropagation(); openMenu(option.key, e); });
  }
  for (const [key, entry] of Object.entries(state.draft)) drawOrder(entry.draw, "mine");
  const hint = phase.hint;
  if (hint && !hint.pending) for (const d of hint.draw || []) drawOrder(d, "hint");
}

// --- choosing an order --------------------------------------------------------------------

function optionOf(key) {
  return state.seat && state.seat.phase ? state.seat.phase.choices.options.find((o) => o.key === key) : null;
}

function openMenu(key, event) {
  const option = optionOf(key);
  if (!option) { closeMenu(); return; }
  state.selected = key;
  const menu = $("menu");
  menu.replaceChildren();
  const h = document.createElement("h3");
  h.textContent = option.unit ? `${option.unit.kind === "FLT" ? "F" : "A"} ${key}` : key === "WVE" ? "waive" : `build in ${key}`;
  menu.appendChild(h);
  for (const choice of option.orders) {
    const b = document.createElement("button");
    b.textContent = choice.text;
    b.dataset.text = choice.text;
    b.addEventListener("click", () => { choose(key, choice); closeMenu(); });
    menu.appendChild(b);
  }
  if (state.draft[key]) {
    const b = document.createElement("button");
    b.textContent = "(no order)";
    b.dataset.text = "";
    b.addEventListener("click", () => { unchoose(key); closeMenu(); });
    menu.appendChild(b);
  }
  const wrap = $("map-wrap").getBoundingClientRect();
  menu.style.left = `${Math.min(event.clientX - wrap.left + 8, wrap.width - 260)}px`;
  menu.style.top = `${Math.max(0, event.clientY - wrap.top - 20)}px`;
  menu.hidden = false;
  drawBoard();
}

function closeMenu() {
  $("menu").hidden = true;
  state.selected = null;
  if (state.seat) drawBoard();
}

function choose(key, choice) {
  state.draft[key] = { text: choice.text, draw: choice.draw };
  saveDraft();
  render();
}

function unchoose(key) {
  delete state.draft[key];
  saveDraft();
  render();
}

function draftTexts() {
  return Object.values(state.draft).map((d) => d.text);
}

function saveDraft() {
  if (!state.turn) return;
  localStorage.setItem(`daide-mcts-draft-${KEY}-${state.turn}`, JSON.stringify(state.draft));
  api("/api/draft", { turn: state.turn, orders: draftTexts() }).then(() => problem(null), (e) => problem(e.message));
}

async function typed(e) {
  e.preventDefault();
  const text = $("order-text").value.trim();
  if (!text || !state.turn) return;
  try {
    const order = await api("/api/check", { turn: state.turn, text });
    state.draft[order.key] = { text: order.text, draw: order.draw };
    $("order-text").value = "";
    problem(null);
    saveDraft();
    render();
  } catch (err) {
    problem(err.message);
  }
}

async function submit() {
  if (!state.turn) return;
  try {
    await api("/api/submit", { turn: state.turn, orders: draftTexts() });
    problem(null);
    $("status").textContent = "orders sent; waiting for the server's answers";
    await poll(true);
  } catch (err) {
    problem(err.message);
  }
}

async function simple(path, body, done) {
  try {
    await api(path, body);
    problem(null);
    if (done) $("status").textContent = done;
    await poll(true);
  } catch (err) {
    problem(err.message);
  }
}

function takeHint() {
  const phase = state.seat.phase;
  if (!phase || !phase.hint) return;
  for (const text of phase.hint.orders) {
    for (const option of phase.choices.options) {
      const choice = option.orders.find((c) => c.text === text);
      if (choice) state.draft[option.key] = { text: choice.text, draw: choice.draw };
    }
  }
  saveDraft();
  render();
}

// --- the panel ----------------------------------------------------------------------------

function renderOrders() {
  const list = $("my-orders");
  list.replaceChildren();
  const phase = state.seat.phase;
  if (!phase) return;
  const answers = phase.answers || {};
  for (const option of phase.choices.options) {
    if (option.key === "WVE" && !state.draft.WVE) continue;
    if (!option.unit && option.key !== "WVE" && !state.draft[option.key]) continue;
    const li = document.createElement("li");
    li.dataset.key = option.key;
    const entry = state.draft[option.key];
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = entry ? entry.text : `${option.unit ? (option.unit.kind === "FLT" ? "F " : "A ") + option.key : option.key}: no order`;
    li.className = entry ? "" : "none";
    li.appendChild(text);
    if (entry && answers[entry.text] !== undefined) {
      const a = document.createElement("span");
      a.className = "answer" + (answers[entry.text] === "MBV" ? "" : " bad");
      a.textContent = answers[entry.text] === "MBV" ? "THX MBV" : `THX ${answers[entry.text]}`;
      li.appendChild(a);
    }
    if (entry) {
      const x = document.createElement("button");
      x.textContent = "\u2715";
      x.title = "remove this order";
      x.addEventListener("click", () => unchoose(option.key));
      li.appendChild(x);
    }
    list.appendChild(li);
  }
  const kind = phase.choices.kind;
  $("kind").textContent = kind === "adjustment"
    ? (phase.choices.due > 0 ? `(${phase.choices.due} to build)` : phase.choices.due < 0 ? `(${-phase.choices.due} to remove)` : "(nothing to do)")
    : `(${kind})`;
}

function renderCentres() {
  const body = $("centres").querySelector("tbody");
  body.replaceChildren();
  const game = state.seat.game;
  const latest = game.count ? game.phases[String(game.count - 1)] : null;
  if (!latest) return;
  const counts = {}, units = {};
  for (const [p, cs] of Object.entries(latest.centres)) counts[p] = cs.length;
  for (const u of latest.units) units[u.power] = (units[u.power] || 0) + 1;
  const powers = [...new Set([...Object.keys(counts), ...Object.keys(units)])].filter((p) => p !== "UNO")
    .sort((a, b) => (counts[b] || 0) - (counts[a] || 0) || a.localeCompare(b));
  for (const p of powers) {
    const tr = document.createElement("tr");
    tr.dataset.power = p;
    tr.innerHTML = `<td><span class="swatch" style="background:${colourOf(p)}"></span></td><td>${p}${p === state.seat.info.power ? " (you)" : ""}</td>` +
      `<td>${escapeHtml(game.meta.players[p] || "?")}</td><td class="num">${counts[p] || 0}</td><td class="num">${units[p] || 0}</td>`;
    body.appendChild(tr);
  }
}

function renderResults() {
  const box = $("results");
  box.replaceChildren();
  const phase = lastResults();
  $("results-turn").textContent = phase ? `(${phase.turn})` : "";
  if (!phase) return;
  const powerOf = (o) => (o.unit ? o.unit.power : o.power);
  const sorted = [...phase.orders].sort((a, b) => powerOf(a).localeCompare(powerOf(b)));
  let last = null;
  for (const o of sorted) {
    const power = powerOf(o);
    if (power !== last) {
      const h = document.createElement("div");
      h.className = "power";
      h.style.color = colourOf(power);
      h.textContent = power;
      box.appendChild(h);
      last = power;
    }
    const div = document.createElement("div");
    div.className = "order-result" + (o.result.includes("SUC") ? "" : " bad");
    div.textContent = o.outcome ? `${o.text} (${o.outcome})` : o.text;
    div.dataset.power = power;
    box.appendChild(div);
  }
}

function renderEnd() {
  const seat = state.seat;
  const box = $("result");
  const result = seat.info.result || seat.game.meta.result;
  box.hidden = !result && !seat.summary.length;
  if (box.hidden) return;
  let html = `Result: ${escapeHtml(result || "the game ended")}`;
  if (seat.summary.length) {
    html += "<table><thead><tr><th>power</th><th>player</th><th>centres</th><th>eliminated</th></tr></thead><tbody>";
    for (const p of [...seat.summary].sort((a, b) => b.centres - a.centres)) {
      html += `<tr><td>${p.power}</td><td>${escapeHtml(p.name)}</td><td class="num">${p.centres}</td><td>${p.eliminated || "-"}</td></tr>`;
    }
    html += "</tbody></table>";
  }
  box.innerHTML = html;
}

function secondsLeft() {
  const s = state.seat ? state.seat.seconds_left : null;
  if (s === null || s === undefined) return null;
  return Math.max(0, s - (Date.now() - state.fetchedAt) / 1000);
}

function renderClock() {
  const left = secondsLeft();
  const phase = state.seat && state.seat.phase;
  const clock = $("countdown");
  clock.textContent = left === null || !phase ? "" : `${Math.floor(left / 60)}:${String(Math.floor(left % 60)).padStart(2, "0")} left`;
  clock.classList.toggle("late", left !== null && left < WARN_SECONDS);
  let warning = "";
  if (phase && left !== null && left < WARN_SECONDS) {
    const unordered = phase.choices.options.filter((o) => o.unit && !state.draft[o.key]).length;
    const unsent = !phase.submitted;
    if (unordered) warning = `${unordered} unit${unordered > 1 ? "s have" : " has"} no order and the deadline is near`;
    else if (unsent) warning = "your orders are not submitted yet";
  }
  $("warning").hidden = !warning;
  $("warning").textContent = warning;
}

function render() {
  const seat = state.seat;
  const info = seat.info;
  $("who").textContent = info.power ? `${info.power} (${info.name}) on ${info.server}` : `${info.name}: joining ${info.server}...`;
  const phase = seat.phase;
  $("phase-title").textContent = phase ? `${SEASON_NAMES[phase.turn.slice(0, 3)] || ""} ${phase.turn.slice(4)}` : info.over ? "game over" : "waiting for the next phase";
  document.body.dataset.turn = phase ? phase.turn : "";
  document.body.dataset.over = info.over ? "1" : "0";
  $("ready").checked = phase ? phase.ready : false;
  $("ready").disabled = !phase || phase.choices.kind !== "movement";
  for (const id of ["submit", "hint", "add"]) $(id).disabled = !phase;
  const hint = phase && phase.hint;
  $("take-hint").hidden = !(hint && !hint.pending && hint.orders.length);
  let status = "";
  if (phase && phase.refused) status = `refused: ${phase.refused}`;
  else if (hint && hint.pending) status = "the bot is thinking...";
  else if (hint && hint.error) status = `no hint: ${hint.error}`;
  else if (hint) status = `the bot would play: ${hint.orders.join(", ") || "nothing"}`;
  else if (phase && phase.submitted) status = `sent ${phase.submitted.length} order(s)`;
  $("status").textContent = status;
  $("missing").hidden = !(phase && phase.missing);
  $("missing").textContent = phase && phase.missing ? `the server still lacks: ${phase.missing}` : "";
  renderOrders();
  renderCentres();
  renderResults();
  renderEnd();
  renderClock();
  drawBoard();
}

// --- following the seat -------------------------------------------------------------------

function adopt(seat) {
  const phase = seat.phase;
  const turn = phase ? phase.turn : null;
  if (turn !== state.turn) {
    state.turn = turn;
    state.draft = {};
    closeMenu();
    if (phase) {
      const byText = {};
      for (const option of phase.choices.options) for (const c of option.orders) byText[c.text] = [option.key, c];
      let texts = phase.draft;
      if (!texts.length) {
        const saved = JSON.parse(localStorage.getItem(`daide-mcts-draft-${KEY}-${turn}`) || "{}");
        texts = Object.values(saved).map((d) => d.text);
      }
      for (const text of texts) {
        const found = byText[text];
        if (found) state.draft[found[0]] = { text, draw: found[1].draw };
      }
    }
  }
  state.seat = seat;
  state.fetchedAt = Date.now();
  state.version = seat.version;
}

async function poll(force = false) {
  try {
    const seat = await api(`/api/state${force ? "" : `?since=${state.version}`}`);
    $("connection").textContent = "";
    if (seat) { adopt(seat); render(); }
  } catch (err) {
    $("connection").textContent = `the seat does not answer: ${err.message}`;
  }
}

async function main() {
  state.map = await fetch("/static/standard-map.json").then((r) => r.json());
  buildMap();
  $("typed").addEventListener("submit", typed);
  $("submit").addEventListener("click", submit);
  $("ready").addEventListener("change", (e) => simple("/api/ready", { turn: state.turn, ready: e.target.checked }));
  $("hint").addEventListener("click", () => simple("/api/hint", { turn: state.turn }, "the bot is thinking..."));
  $("take-hint").addEventListener("click", takeHint);
  $("draw").addEventListener("click", () => simple("/api/draw", {}, "draw proposed"));
  $("show-results").addEventListener("change", (e) => { state.showResults = e.target.checked; drawBoard(); });
  await poll(true);
  document.body.dataset.ready = "1";
  setInterval(() => poll(false), POLL_MS);
  setInterval(() => { if (state.seat) renderClock(); }, 250);
}

main();
