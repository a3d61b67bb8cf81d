// The ranked hint on the seat's page: the search's best sets with their values and visit
// shares, each previewed on the map or taken whole; per unit, the search's spread over its
// orders (shown on hover of the unit, and listed with a button that takes that unit's
// advice only); and how long the search thinks for a hint (kept in the browser).  The seat's
// page (human.js) calls setup() once, then render() and overlay() each time it draws.

const SECONDS = [1, 3, 10, 30];
const DEFAULT_SECONDS = 3;
const STORE = "daide-mcts-hint-seconds";

const hint = { take: null, redraw: null, turn: null, preview: null, phase: null };
const $ = (id) => document.getElementById(id);

const percent = (share) => `${(100 * share).toFixed(share < 0.1 ? 1 : 0)}%`;
const value = (v) => v.toFixed(3);

function button(text, cls, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

// take(texts): put these orders in the draft, each for its unit; redraw(): draw the board.
export function setup(take, redraw) {
  hint.take = take;
  hint.redraw = redraw;
  const select = $("hint-seconds");
  for (const s of SECONDS) {
    const o = document.createElement("option");
    o.value = String(s);
    o.textContent = `${s} s`;
    select.append(o);
  }
  const kept = Number(localStorage.getItem(STORE));
  select.value = String(SECONDS.includes(kept) ? kept : DEFAULT_SECONDS);
  select.addEventListener("change", () => localStorage.setItem(STORE, select.value));
}

// The body of POST /api/hint: the phase and the think time chosen.
export function request(turn) {
  return { turn, seconds: Number($("hint-seconds").value) };
}

function ranked(phase) {
  const h = phase && phase.hint;
  return h && !h.pending && h.ranked ? h.ranked : null;
}

export function render(phase) {
  const panel = $("ranked-hint");
  const r = ranked(phase);
  hint.phase = phase;
  if (!phase || phase.turn !== hint.turn) {
    hint.turn = phase ? phase.turn : null;
    hint.preview = null;
  }
  panel.hidden = !r;
  panel.replaceChildren();
  if (!r) return;
  const title = document.createElement("h3");
  title.textContent = "The search's best sets";
  const sets = document.createElement("table");
  sets.className = "sets";
  sets.createTHead().innerHTML = "<tr><th></th><th>value</th><th>visits</th><th>orders</th><th></th></tr>";
  const body = sets.createTBody();
  r.sets.forEach((set, i) => {
    const row = body.insertRow();
    row.dataset.set = String(i);
    if (hint.preview === i) row.classList.add("previewed");
    row.insertCell().textContent = `${i + 1}.`;
    row.insertCell().textContent = value(set.value);
    row.insertCell().textContent = percent(set.share);
    const orders = row.insertCell();
    orders.className = "orders";
    orders.textContent = set.orders.join(", ");
    const buttons = row.insertCell();
    buttons.className = "buttons";
    buttons.append(
      button(hint.preview === i ? "hide" : "preview", "preview", () => {
        hint.preview = hint.preview === i ? null : i;
        render(hint.phase);
        hint.redraw();
      }),
      button("take", "take", () => hint.take(set.orders)),
    );
  });
  const units = document.createElement("table");
  units.className = "units";
  const unitBody = units.createTBody();
  for (const unit of r.spread) {
    if (!unit.key || !unit.orders.length) continue;
    const best = unit.orders[0];
    const row = unitBody.insertRow();
    row.dataset.key = unit.key;
    row.title = unit.orders.map((o) => `${o.text}  ${percent(o.share)}`).join("\n");
    row.insertCell().textContent = best.text;
    row.insertCell().textContent = percent(best.share);
    row.insertCell().textContent = `${unit.orders.length} order(s)`;
    const take = row.insertCell();
    take.className = "buttons";
    take.append(button("take this one", "take-unit", () => hint.take([best.text])));
  }
  const perUnit = document.createElement("h3");
  perUnit.textContent = "Each unit's advice (hover a unit for its spread)";
  panel.append(title, sets, perUnit, units);
}

// The orders drawn as the hint: the previewed set's, else the hint's own.
export function shown(h) {
  const r = h && h.ranked;
  if (r && hint.preview !== null && r.sets[hint.preview]) return r.sets[hint.preview].draw;
  return (h && h.draw) || [];
}

function showSpread(unit, event) {
  const box = $("unit-spread");
  box.replaceChildren();
  const head = document.createElement("h3");
  head.textContent = `${unit.key}: the search's spread`;
  const list = document.createElement("table");
  for (const o of unit.orders) {
    const row = list.insertRow();
    row.insertCell().textContent = o.text;
    row.insertCell().textContent = percent(o.share);
    const bar = row.insertCell();
    const fill = document.createElement("span");
    fill.className = "bar";
    fill.style.width = `${Math.max(1, Math.round(60 * o.share))}px`;
    bar.append(fill);
    row.insertCell().textContent = value(o.value);
  }
  box.append(head, list);
  const wrap = $("map-wrap").getBoundingClientRect();
  box.style.left = `${event.clientX - wrap.left + 14}px`;
  box.style.top = `${event.clientY - wrap.top + 14}px`;
  box.dataset.key = unit.key;
  box.hidden = false;
}

// Hovering one of the person's units shows the search's spread over its orders.
export function overlay(phase) {
  const r = ranked(phase);
  const box = $("unit-spread");
  box.hidden = true;
  if (!r) return;
  const byKey = Object.fromEntries(r.spread.filter((u) => u.key).map((u) => [u.key, u]));
  for (const g of document.querySelectorAll("#map g.unit.mine")) {
    const unit = byKey[g.dataset.province];
    if (!unit) continue;
    g.addEventListener("mouseenter", (e) => showSpread(unit, e));
    g.addEventListener("mouseleave", () => { box.hidden = true; });
  }
}
