// daide-mcts view: draws the map of one phase of a game and steps through the phases.
// The game comes from /api/game; a live game's changes arrive as server-sent events on
// /api/events.  The map (province shapes and anchors) is /api/map, the picture of the
// game's map (bot/view/mappicture.py: the standard map's geometry, or a layout computed
// from the MDF), drawn by mapdraw.js; it is fetched again when the game's meta.map
// changes.  No build step: a plain ES module.

import { MapDrawing, el, ordersByPower, titleOf } from "./mapdraw.js";

const PLAY_INTERVAL_MS = 1200;
const SEASON_NAMES = { SPR: "Spring", SUM: "Summer retreats", FAL: "Fall", AUT: "Fall retreats", WIN: "Winter adjustments" };

const state = {
  map: null,
  drawing: null,
  phases: [],
  meta: { players: {}, colours: {}, chart: { years: [], powers: {} } },
  version: 0,
  index: 0,
  timer: null,
  pinned: null,
};

const $ = (id) => document.getElementById(id);

function colourOf(power) {
  return state.meta.colours[power] || "#9e9e9e";
}

// --- the map ----------------------------------------------------------------------------

function buildMap() {
  state.pinned = null;
  $("info").hidden = true;
  state.drawing = new MapDrawing(state.map, $("map"), colourOf);
  state.layers = state.drawing.layers;
  for (const [code, path] of Object.entries(state.drawing.provinces)) {
    path.addEventListener("mouseenter", () => showInfo(code, false));
    path.addEventListener("mouseleave", () => { if (!state.pinned) hideInfo(); });
    path.addEventListener("click", () => showInfo(code, true));
  }
}

function ownerMap(phase) {
  const owner = {};
  for (const [power, centres] of Object.entries(phase ? phase.centres : {})) {
    for (const c of centres) owner[c] = power;
  }
  return owner;
}

function drawPhase(phase) {
  state.drawing.clear("units", "crosses", "orders");
  state.drawing.drawPhase(phase);
}

// --- the panel --------------------------------------------------------------------------

function powersOf(phase) {
  const powers = new Set(Object.keys(state.meta.chart.powers));
  if (phase) {
    for (const p of Object.keys(phase.centres)) if (p !== "UNO") powers.add(p);
    for (const u of phase.units) powers.add(u.power);
  }
  return [...powers].sort();
}

function drawTable(phase) {
  const body = $("centres").querySelector("tbody");
  body.replaceChildren();
  const counts = {}, units = {};
  for (const [p, cs] of Object.entries(phase ? phase.centres : {})) counts[p] = cs.length;
  for (const u of phase ? phase.units : []) units[u.power] = (units[u.power] || 0) + 1;
  const powers = powersOf(phase).sort((a, b) => (counts[b] || 0) - (counts[a] || 0) || a.localeCompare(b));
  for (const p of powers) {
    const tr = document.createElement("tr");
    tr.dataset.power = p;
    tr.innerHTML = `<td><span class="swatch" style="background:${colourOf(p)}"></span></td>` +
      `<td>${p}</td><td>${escapeHtml(state.meta.players[p] || "?")}</td>` +
      `<td class="num">${counts[p] || 0}</td><td class="num">${units[p] || 0}</td>`;
    body.appendChild(tr);
  }
  if (counts.UNO !== undefined) {
    const tr = document.createElement("tr");
    tr.innerHTML = `<td><span class="swatch" style="background:#fff"></span></td><td>neutral</td><td></td>` +
      `<td class="num">${counts.UNO}</td><td></td>`;
    body.appendChild(tr);
  }
}

function drawChart(phase) {
  const svg = $("chart");
  svg.replaceChildren();
  const { years, powers } = state.meta.chart;
  const [W, H, left, right, top, bottom] = [360, 200, 26, 10, 10, 22];
  const maxValue = Math.max(18, ...Object.values(powers).flat());
  const x = (i) => left + (years.length <= 1 ? 0 : (W - left - right) * i / (years.length - 1));
  const y = (v) => H - bottom - (H - top - bottom) * v / maxValue;
  for (let v = 0; v <= maxValue; v += 6) {
    el("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), stroke: "#e6e6e6" }, svg);
    el("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end" }, svg).textContent = v;
  }
  years.forEach((year, i) => {
    if (years.length > 12 && i % 2) return;
    el("text", { x: x(i), y: H - 6, "text-anchor": "middle" }, svg).textContent = i === 0 ? "start" : String(year).slice(2);
  });
  if (phase && years.length) {
    const shown = phase.season === "SPR" || phase.season === "SUM" ? phase.year - 1 : phase.year;
    const i = years.indexOf(shown);
    if (i >= 0) el("line", { x1: x(i), x2: x(i), y1: top, y2: H - bottom, stroke: "#999", "stroke-dasharray": "3 3" }, svg);
  }
  for (const [power, values] of Object.entries(powers)) {
    const d = values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    el("path", { d, fill: "none", stroke: colourOf(power), "stroke-width": 2, "data-power": power }, svg)
      .appendChild(titleOf(`${power}: ${values.join(", ")}`));
  }
}

function orderText(o) {
  return o.outcome ? `${o.text} (${o.outcome})` : o.text;
}

function drawOrderList(phase) {
  const box = $("orders");
  box.replaceChildren();
  if (!phase || !phase.orders.length) {
    box.textContent = phase && phase.units.length ? "no orders reported yet" : "";
    return;
  }
  ordersByPower(box, phase.orders, colourOf, (o, div) => {
    div.className = o.result.includes("SUC") ? "" : "bad";
    div.textContent = orderText(o);
    div.title = o.daide;
  });
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// --- hover and click --------------------------------------------------------------------

function touches(order, code) {
  if (order.type === "waive") return false;
  return order.unit.province === code || (order.to && (order.to === code || order.to.province === code)) ||
    (order.supported && order.supported.province === code) || (order.via || []).includes(code);
}

function showInfo(code, pin) {
  if (pin) state.pinned = state.pinned === code ? null : code;
  const shown = pin ? state.pinned : code;
  for (const path of state.layers.provinces.querySelectorAll(".highlight")) path.classList.remove("highlight");
  if (!shown) { hideInfo(); return; }
  const phase = state.phases[state.index];
  const p = state.map.provinces[shown];
  const owner = ownerMap(phase)[shown];
  const units = phase ? phase.units.filter((u) => u.province === shown) : [];
  const orders = phase ? phase.orders.filter((o) => touches(o, shown)) : [];
  const kind = { sea: "sea", coast: "coastal land", land: "inland" }[p.kind];
  let html = `<h3>${escapeHtml(p.name)} (${shown})</h3><div>${kind}` +
    (p.sc ? `, supply centre owned by ${owner === "UNO" || !owner ? "nobody" : owner}` +
      (p.home ? ` (home of ${p.home})` : "") : "") + "</div>";
  for (const u of units) {
    html += `<div>${u.power} ${u.kind === "FLT" ? "fleet" : "army"}${u.coast ? " on " + u.coast : ""}` +
      (u.retreats ? ` &mdash; dislodged, may retreat to ${u.retreats.map((r) => r.province).join(", ") || "nowhere"}` : "") + "</div>";
  }
  if (orders.length) html += "<ul>" + orders.map((o) => `<li>${escapeHtml(orderText(o))}</li>`).join("") + "</ul>";
  const info = $("info");
  info.innerHTML = html;
  info.hidden = false;
  state.layers.provinces.querySelector(`[data-province="${shown}"]`).classList.add("highlight");
}

function hideInfo() {
  $("info").hidden = true;
  for (const path of state.layers.provinces.querySelectorAll(".highlight")) path.classList.remove("highlight");
}

// --- stepping ---------------------------------------------------------------------------

function render() {
  const count = state.phases.length;
  state.index = Math.max(0, Math.min(state.index, count - 1));
  const phase = count ? state.phases[state.index] : null;
  const slider = $("slider");
  slider.max = Math.max(0, count - 1);
  slider.value = state.index;
  $("phase-title").textContent = phase
    ? `${SEASON_NAMES[phase.season] || phase.season} ${phase.year}  (${state.index + 1}/${count})`
    : "waiting for the game to start";
  document.body.dataset.phaseIndex = state.index;
  document.body.dataset.phaseCount = count;
  document.body.dataset.turn = phase ? phase.turn : "";
  state.drawing.paint(phase ? phase.centres : {});
  if (phase) drawPhase(phase);
  else state.drawing.clear("units", "orders", "crosses");
  drawTable(phase);
  drawChart(phase);
  drawOrderList(phase);
  const result = $("result");
  result.hidden = !state.meta.result;
  result.textContent = state.meta.result ? `Result: ${state.meta.result}` + (state.meta.over ? " (game over)" : "") : "";
  $("problem").hidden = !state.meta.problem;
  $("problem").textContent = state.meta.problem || "";
  if (state.pinned) showInfo(state.pinned, false);
}

function go(index) {
  state.index = index;
  render();
}

function step(delta) {
  go(Math.max(0, Math.min(state.phases.length - 1, state.index + delta)));
}

function togglePlay() {
  if (state.timer) {
    clearInterval(state.timer);
    state.timer = null;
  } else {
    if (state.index >= state.phases.length - 1) go(0);
    state.timer = setInterval(() => {
      if (state.index >= state.phases.length - 1 && !state.meta.live) togglePlay();
      else step(1);
    }, PLAY_INTERVAL_MS);
  }
  $("play").textContent = state.timer ? "pause" : "play";
  document.body.dataset.playing = state.timer ? "1" : "0";
}

function wireControls() {
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("last").addEventListener("click", () => go(state.phases.length - 1));
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.key !== " ") return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(state.phases.length - 1);
    else if (e.key === " ") togglePlay();
    else return;
    e.preventDefault();
  });
}

// --- the game, and its changes ----------------------------------------------------------

// When each phase first reached the page (the tests read it to time live updates).
window.viewLog = [];

// The game's map changed (its MDF arrived): fetch its picture and draw it instead.
async function followMap() {
  const wanted = state.meta.map || "standard";
  if (!state.map || state.map.name === wanted || state.loadingMap === wanted) return;
  state.loadingMap = wanted;
  try {
    const map = await fetch("/api/map").then((r) => r.json());
    state.map = map;
    buildMap();
    render();
  } finally {
    state.loadingMap = null;
  }
}

function apply(update) {
  const following = state.index >= state.phases.length - 1;
  const fresh = Object.keys(update.phases).filter((i) => !state.phases[Number(i)]);
  window.viewLog.push({ turns: fresh.map((i) => update.phases[i].turn), count: update.count, at: Date.now() });
  for (const [i, phase] of Object.entries(update.phases)) state.phases[Number(i)] = phase;
  state.phases.length = update.count;
  state.meta = update.meta;
  state.version = update.version;
  if (following) state.index = state.phases.length - 1;
  render();
  followMap();
}

function listen() {
  const source = new EventSource(`/api/events?since=${state.version}`);
  source.addEventListener("update", (e) => apply(JSON.parse(e.data)));
  source.onerror = () => {
    if (state.meta.over) source.close();
  };
}

async function main() {
  const [map, game] = await Promise.all([
    fetch("/api/map").then((r) => r.json()),
    fetch("/api/game").then((r) => r.json()),
  ]);
  state.map = map;
  buildMap();
  wireControls();
  state.index = state.phases.length;
  apply(game);
  $("source").textContent = game.meta.source;
  $("live").hidden = !game.meta.live;
  if (game.meta.live) listen();
  else go(0);
  await followMap();
  document.body.dataset.ready = "1";
}

main();
