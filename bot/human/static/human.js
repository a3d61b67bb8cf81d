// daide-mcts human: one person's seat in a game.  The seat's state comes as server-sent
// events from /api/events: a "state" event with the whole state when the stream opens
// (again after a lost connection), then a "change" event with only the parts that changed
// (the game as its changed phases).  Orders go to /api/draft and /api/submit; every
// request carries the seat's key (from the page's address).  The map is the picture of the game's map (/api/map: the
// standard map's geometry or a layout computed from the MDF, fetched again when the
// seat's "map" changes), drawn by the viewer's /view/mapdraw.js.  No build step: a plain
// ES module.

import { DISLODGED_OFFSET, MapDrawing, UNIT_RADIUS, el } from "/view/mapdraw.js";
import { Coach } from "/static/coach.js";
import { Story, orderResults } from "/static/story.js";
import * as ranked from "/static/hint.js";

const RECONNECT_MS = 2000;
const WARN_SECONDS = 15;
const SEASON_NAMES = { SPR: "Spring", SUM: "Summer retreats", FAL: "Fall", AUT: "Fall retreats", WIN: "Winter adjustments" };
const KEY = new URLSearchParams(location.search).get("key") || "";

const state = {
  map: null, drawing: null, seat: null, version: -1, turn: null, draft: {}, selected: null,
  fetchedAt: 0, showResults: false,
};

const $ = (id) => document.getElementById(id);

function colourOf(power) {
  const colours = state.seat ? state.seat.game.meta.colours : {};
  return colours[power] || "#9e9e9e";
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

function buildMap() {
  state.drawing = new MapDrawing(state.map, $("map"), colourOf);
  for (const [code, path] of Object.entries(state.drawing.provinces)) {
    path.addEventListener("click", (e) => openMenu(code, e));
  }
}

// One of the seat's units (or a build site), which opens its menu of legal orders on a click.
function drawMine(unit, key, dislodged) {
  const classes = ["mine", key === state.selected ? "selected" : ""];
  const g = state.drawing.drawUnit(unit, { dislodged, classes, ring: true });
  if (!g) return;
  g.addEventListener("click", (e) => { e.stopPropagation(); openMenu(key, e); });
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
  const drawing = state.drawing;
  if (story.draw(drawing)) return;  // a past phase is shown
  drawing.clear("orders", "units", "crosses", "sites");
  const game = seat.game;
  const latest = game.count ? game.phases[String(game.count - 1)] : null;
  drawing.paint(latest ? latest.centres : {});
  if (state.showResults) {
    const phase = lastResults();
    if (phase) {
      const positions = drawing.drawUnits(phase.units);
      for (const o of phase.orders) drawing.drawOrder(o, { positions });
    }
    return;
  }
  const phase = seat.phase;
  const units = phase ? phase.units : latest ? latest.units : [];
  const mine = new Set(phase ? phase.choices.options.map((o) => o.key) : []);
  const positions = {};
  for (const u of units) {
    const dislodged = u.retreats !== null;
    if (phase && mine.has(u.province) && (phase.choices.kind !== "retreat" || dislodged)) {
      drawMine(u, u.province, dislodged);
    } else {
      drawing.drawUnit(u, { dislodged });
    }
    if (dislodged && drawing.anchor(u.province, u.coast)) {
      const [x, y] = drawing.anchor(u.province, u.coast);
      positions[u.province + "*"] = [x + DISLODGED_OFFSET, y + DISLODGED_OFFSET * 0.7];
      drawing.drawRetreatOptions(u, positions);
    }
  }
  if (!phase) return;
  for (const option of phase.choices.options) {
    if (option.unit || option.key === "WVE" || !drawing.anchor(option.key)) continue;
    const [x, y] = drawing.anchor(option.key);
    const cls = "site" + (state.selected === option.key ? " selected" : "");
    const site = el("circle", { cx: x, cy: y, r: UNIT_RADIUS + 3, "data-site": option.key, class: cls },
                    drawing.layers.sites);
    site.addEventListener("click", (e) => { e.stopPropagation(); openMenu(option.key, e); });
  }
  for (const entry of Object.values(state.draft)) drawing.drawOrder(entry.draw, { style: "mine" });
  const hint = phase.hint;
  if (hint && !hint.pending) {
    for (const d of ranked.shown(hint)) if (d) drawing.drawOrder(d, { style: "hint" });
  }
  ranked.overlay(phase);
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
  // A background save: its success must not clear what a later action reported.
  api("/api/draft", { turn: state.turn, orders: draftTexts() }).catch((e) => problem(e.message));
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
  } catch (err) {
    problem(err.message);
  }
}

async function simple(path, body, done) {
  try {
    await api(path, body);
    problem(null);
    if (done) $("status").textContent = done;
  } catch (err) {
    problem(err.message);
  }
}

function takeHint() {
  const phase = state.seat.phase;
  if (phase && phase.hint) takeOrders(phase.hint.orders);
}

// Draft these orders (as the menus spell them), each for its own unit.
function takeOrders(texts) {
  const phase = state.seat.phase;
  if (!phase) return;
  for (const text of texts) {
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
  orderResults(box, phase.orders, colourOf);
}

function renderEnd() {
  const seat = state.seat;
  const box = $("result");
  const result = seat.info.result || seat.game.meta.result;
  box.hidden = !result && !seat.summary.length;
  if (box.hidden) return;
  let html = `Result: ${escapeHtml(result || "the game ended")}`;
  if (seat.summary.length) {
    // The table daide-mcts game prints: best first, BANDANA's points, the rank.
    html += "<table><thead><tr><th>player</th><th>power</th><th>centres</th><th>solo</th>"
      + "<th>points</th><th>rank</th></tr></thead><tbody>";
    for (const p of seat.summary) {
      html += `<tr><td>${escapeHtml(p.name)}</td><td>${p.power}</td><td class="num">${p.centres}</td>`
        + `<td>${p.solo ? "yes" : "-"}</td><td class="num">${p.points}</td><td class="num">${p.rank.toFixed(1)}</td></tr>`;
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
  // A state heard while the person's click is on its way must not undo the click.
  if (!state.readying) $("ready").checked = phase ? phase.ready : false;
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
  ranked.render(phase);
  renderOrders();
  renderCentres();
  renderResults();
  renderEnd();
  renderClock();
  story.render(seat);
  coach.render(seat);
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

// The game's map changed (the server's MDF was heard): fetch its picture and draw it instead.
async function followMap(seat) {
  if (!seat || !seat.map || (state.map && state.map.name === seat.map)) return;
  state.map = await api("/api/map");
  closeMenu();
  buildMap();
}

// A "change" event: the parts that changed replace the seat's; the game's changed phases
// replace its phases, and phases past its count are dropped.
function merged(seat, change) {
  const next = { ...seat, ...change };
  if (change.game) {
    const phases = { ...seat.game.phases, ...change.game.phases };
    for (const i of Object.keys(phases)) if (Number(i) >= change.game.count) delete phases[i];
    next.game = { ...change.game, phases };
  }
  return next;
}

async function receive(kind, data) {
  const seat = kind === "state" ? data : merged(state.seat, data);
  await followMap(seat);
  adopt(seat);
  render();
  document.dispatchEvent(new CustomEvent("seat", { detail: seat })); // the press panel follows it
  document.body.dataset.ready = "1";
}

// Events are applied one after another, in the order they came.
let applying = Promise.resolve();

function listen() {
  const source = new EventSource(`/api/events?key=${encodeURIComponent(KEY)}`);
  const take = (kind) => (e) => {
    $("connection").textContent = "";
    const data = JSON.parse(e.data);
    applying = applying.then(() => receive(kind, data)).catch((err) => problem(err.message));
  };
  source.addEventListener("state", take("state"));
  source.addEventListener("change", take("change"));
  source.onerror = () => {
    $("connection").textContent = "the seat does not answer; trying again...";
    // The browser reconnects by itself unless the stream was refused; then start anew.
    // Either way the new stream's first event is the whole state.
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, RECONNECT_MS);
  };
}

// The game's story (past phases, the centre graph) and the coach (grades, the review).
const story = new Story(colourOf, () => { if (state.seat) drawBoard(); });
const coach = new Coach(story, api);

async function main() {
  state.map = await api("/api/map");
  buildMap();
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });
  $("typed").addEventListener("submit", typed);
  $("submit").addEventListener("click", submit);
  $("ready").addEventListener("change", async (e) => {
    state.readying = true;
    try { await simple("/api/ready", { turn: state.turn, ready: e.target.checked }); } finally { state.readying = false; }
  });
  ranked.setup(takeOrders, () => { if (state.seat) drawBoard(); });
  $("hint").addEventListener("click", () => simple("/api/hint", ranked.request(state.turn), "the bot is thinking..."));
  $("take-hint").addEventListener("click", takeHint);
  $("draw").addEventListener("click", () => simple("/api/draw", {}, "draw proposed"));
  $("show-results").addEventListener("change", (e) => { state.showResults = e.target.checked; drawBoard(); });
  listen();
  setInterval(() => { if (state.seat) renderClock(); }, 250);
}

main();
