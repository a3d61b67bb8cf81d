// The game's story on the seat's page: every past phase browsable (the buttons, or the
// ←/→ keys), drawn as the viewer draws it (mapdraw.js's drawPhase: every power's orders
// and their results), and a graph of each power's centres over the game's phases with the
// person's grades along their line; a click on the graph shows that phase.  The phases are
// the seat's state's "game" (the viewer's JSON of bot/view/timeline.py), the grades its
// "coach".  A plain ES module, used by human.js.

import { el, ordersByPower, titleOf } from "/view/mapdraw.js";

const SEASON_NAMES = { SPR: "Spring", SUM: "Summer retreats", FAL: "Fall", AUT: "Fall retreats", WIN: "Winter adjustments" };
const CHART = { width: 360, height: 170, left: 24, right: 8, top: 8, bottom: 18 };
const GRID_STEP = 6;
const MIN_TOP = 12;
export const LABEL_COLOURS = { good: "#1b7a2e", inaccuracy: "#f9a825", mistake: "#ef6c00", blunder: "#c62828" };

const $ = (id) => document.getElementById(id);

export class Story {
  // ``colourOf(power)`` gives a power's colour; ``redraw()`` draws the board again.
  constructor(colourOf, redraw) {
    this.colourOf = colourOf;
    this.redraw = redraw;
    this.seat = null;
    this.index = null; // the phase shown, or null: the phase being played
    this.better = false; // draw the bot's set instead of the person's in the phase shown
    this.overlay = null; // { index, orders }: a phase played again ("try again"), drawn instead
    this.build();
  }

  build() {
    const box = $("story");
    box.replaceChildren();
    const bar = document.createElement("div");
    bar.id = "story-bar";
    for (const [id, text, title] of [["story-first", "first", "the first phase"], ["story-prev", "\u25c0", "the phase before (\u2190)"],
      ["story-next", "\u25b6", "the phase after (\u2192)"], ["story-now", "now", "back to the phase being played"]]) {
      const b = document.createElement("button");
      b.id = id;
      b.textContent = text;
      b.title = title;
      bar.appendChild(b);
    }
    const title = document.createElement("span");
    title.id = "story-title";
    bar.appendChild(title);
    const better = document.createElement("label");
    better.id = "story-better";
    better.innerHTML = '<input type="checkbox" id="show-better"> the bot\'s set instead of yours';
    bar.appendChild(better);
    box.appendChild(bar);
    const grade = document.createElement("div");
    grade.id = "story-grade";
    box.appendChild(grade);
    const svg = el("svg", { id: "story-chart", viewBox: `0 0 ${CHART.width} ${CHART.height}`, role: "img",
                            "aria-label": "centres per power, phase by phase" });
    box.appendChild(svg);
    const list = document.createElement("div");
    list.id = "story-orders";
    box.appendChild(list);
    $("story-first").addEventListener("click", () => this.go(0));
    $("story-prev").addEventListener("click", () => this.step(-1));
    $("story-next").addEventListener("click", () => this.step(1));
    $("story-now").addEventListener("click", () => this.go(null));
    $("show-better").addEventListener("change", (e) => { this.better = e.target.checked; this.show(); });
    svg.addEventListener("click", (e) => this.clickChart(e));
    document.addEventListener("keydown", (e) => {
      if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
      if (e.key === "ArrowLeft") this.step(-1);
      else if (e.key === "ArrowRight") this.step(1);
      else return;
      e.preventDefault();
    });
  }

  phases() {
    const game = this.seat ? this.seat.game : { count: 0, phases: {} };
    const out = [];
    for (let i = 0; i < game.count; i++) out.push(game.phases[String(i)]);
    return out;
  }

  browsing() {
    return this.index !== null;
  }

  gradeOf(turn) {
    const coach = this.seat && this.seat.coach;
    return coach ? coach.grades.find((g) => g.turn === turn) || null : null;
  }

  // Show phase ``index`` (null: the phase being played); the last phase is the one being played.
  go(index, { keepOverlay = false } = {}) {
    const count = this.phases().length;
    if (index !== null) index = Math.max(0, Math.min(index, count - 1));
    if (index !== null && index === count - 1 && this.seat && this.seat.phase) index = null;
    this.index = index;
    if (!keepOverlay) this.overlay = null;
    this.show();
  }

  step(delta) {
    const count = this.phases().length;
    const last = this.seat && this.seat.phase ? count - 1 : count;
    const from = this.index === null ? last : this.index;
    this.go(Math.max(0, Math.min(from + delta, count - 1)));
  }

  show() {
    this.render(this.seat);
    this.redraw();
  }

  // Draw the phase shown on the map (false when the phase being played is shown).
  draw(drawing) {
    const phase = this.index === null ? null : this.phases()[this.index];
    if (!phase) return false;
    drawing.clear("orders", "units", "crosses", "sites");
    drawing.paint(phase.centres);
    const me = this.seat.info.power;
    const grade = this.gradeOf(phase.turn);
    let orders = phase.orders;
    if (this.overlay && this.overlay.index === this.index) orders = this.overlay.orders;
    else if (this.better && grade) {
      orders = phase.orders.filter((o) => (o.unit ? o.unit.power : o.power) !== me);
    }
    drawing.drawPhase(phase, orders);
    if (this.better && grade && !(this.overlay && this.overlay.index === this.index)) {
      for (const d of grade.better_draw) drawing.drawOrder(d, { style: "hint" });
    }
    return true;
  }

  render(seat) {
    this.seat = seat;
    if (!seat) return;
    const phases = this.phases();
    if (this.index !== null && this.index >= phases.length) this.index = null;
    const shown = this.index === null ? null : phases[this.index];
    document.body.dataset.storyIndex = this.index === null ? "" : String(this.index);
    document.body.dataset.storyTurn = shown ? shown.turn : "";
    $("story-title").textContent = shown
      ? `${SEASON_NAMES[shown.season] || shown.season} ${shown.year} (${this.index + 1}/${phases.length})`
      : phases.length ? "now" : "";
    $("story-now").disabled = this.index === null;
    $("story-prev").disabled = !phases.length || this.index === 0;
    $("story-next").disabled = this.index === null;
    const grade = shown ? this.gradeOf(shown.turn) : null;
    $("story-better").hidden = !grade;
    $("show-better").checked = this.better;
    this.renderGrade(shown, grade);
    this.renderOrders(shown);
    this.renderChart(phases);
  }

  renderGrade(shown, grade) {
    const box = $("story-grade");
    box.replaceChildren();
    box.dataset.label = grade ? grade.label : "";
    if (!shown) return;
    const coach = this.seat.coach;
    if (grade) box.appendChild(gradeLine(grade));
    else if (coach && coach.pending.includes(shown.turn)) box.textContent = "your orders here are being graded...";
  }

  renderOrders(shown) {
    const box = $("story-orders");
    box.replaceChildren();
    if (!shown) return;
    const overlaid = this.overlay && this.overlay.index === this.index;
    const orders = overlaid ? this.overlay.orders : shown.orders;
    if (!orders.length) { box.textContent = "no orders reported"; return; }
    if (overlaid) {
      const note = document.createElement("div");
      note.className = "note";
      note.textContent = "played again with your new orders:";
      box.appendChild(note);
    }
    orderResults(box, orders, this.colourOf);
  }

  // Centres per power, phase by phase; the person's grades as dots on their line.
  renderChart(phases) {
    const svg = $("story-chart");
    svg.replaceChildren();
    const { width: W, height: H, left, right, top, bottom } = CHART;
    const counts = phases.map((p) => {
      const c = {};
      for (const [power, cs] of Object.entries(p.centres)) if (power !== "UNO") c[power] = cs.length;
      return c;
    });
    const powers = [...new Set(counts.flatMap((c) => Object.keys(c)))].sort();
    const maxValue = Math.max(MIN_TOP, ...counts.flatMap((c) => Object.values(c)));
    this.x = (i) => left + (phases.length <= 1 ? 0 : (W - left - right) * i / (phases.length - 1));
    const y = (v) => H - bottom - (H - top - bottom) * v / maxValue;
    for (let v = 0; v <= maxValue; v += GRID_STEP) {
      el("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), stroke: "#e6e6e6" }, svg);
      el("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end" }, svg).textContent = v;
    }
    phases.forEach((p, i) => {
      if (p.season !== "SPR") return;
      el("text", { x: this.x(i), y: H - 5, "text-anchor": "middle" }, svg).textContent = String(p.year);
    });
    const at = this.index === null ? phases.length - 1 : this.index;
    if (phases.length) {
      el("line", { x1: this.x(at), x2: this.x(at), y1: top, y2: H - bottom, stroke: "#777",
                   "stroke-dasharray": "3 3", id: "story-cursor" }, svg);
    }
    const me = this.seat.info.power;
    for (const power of powers) {
      const d = counts.map((c, i) => `${i ? "L" : "M"}${this.x(i).toFixed(1)},${y(c[power] || 0).toFixed(1)}`).join(" ");
      el("path", { d, fill: "none", stroke: this.colourOf(power), "stroke-width": power === me ? 3 : 1.6,
                   "data-power": power }, svg).appendChild(titleOf(power));
    }
    const grades = this.seat.coach ? this.seat.coach.grades : [];
    for (const g of grades) {
      const i = phases.findIndex((p) => p.turn === g.turn);
      if (i < 0) continue;
      el("circle", { cx: this.x(i), cy: y(counts[i][me] || 0), r: 4.5, class: `grade-mark ${g.label}`,
                     fill: LABEL_COLOURS[g.label], "data-turn": g.turn, "data-index": i }, svg)
        .appendChild(titleOf(`${g.turn}: ${g.label} (${signed(-g.loss)} centres against the bot's set)`));
    }
  }

  clickChart(event) {
    const phases = this.phases();
    if (!phases.length) return;
    const svg = $("story-chart");
    const box = svg.getBoundingClientRect();
    const x = (event.clientX - box.left) * CHART.width / box.width;
    let best = 0;
    for (let i = 1; i < phases.length; i++) if (Math.abs(this.x(i) - x) < Math.abs(this.x(best) - x)) best = i;
    this.go(best);
  }
}

// A phase's orders with their results into ``box``, under each power's name (powers in order).
export function orderResults(box, orders, colourOf) {
  const powerOf = (o) => (o.unit ? o.unit.power : o.power);
  const sorted = [...orders].sort((a, b) => powerOf(a).localeCompare(powerOf(b)));
  ordersByPower(box, sorted, colourOf, (o, div, power) => {
    div.className = "order-result" + (o.result.includes("SUC") ? "" : " bad");
    div.textContent = o.outcome ? `${o.text} (${o.outcome})` : o.text;
    div.dataset.power = power;
  });
}

export function signed(value) {
  return (value >= 0 ? "+" : "\u2212") + Math.abs(value).toFixed(2);
}

// One grade in a line: the label, the centres each set leads to, the difference ± its uncertainty.
export function gradeLine(g) {
  const div = document.createElement("div");
  div.className = "grade-line";
  div.dataset.label = g.label;
  div.dataset.turn = g.turn;
  const label = document.createElement("span");
  label.className = `grade-label ${g.label}`;
  label.style.background = LABEL_COLOURS[g.label];
  label.textContent = g.label;
  div.appendChild(label);
  const half = (g.high - g.low) / 2;
  const text = document.createElement("span");
  text.textContent = ` ${g.turn}: your orders ${g.played_centres.toFixed(2)} centres by winter ${g.horizon}, ` +
    `the bot's ${g.bot_centres.toFixed(2)}: ${signed(-g.loss)} \u00b1 ${half.toFixed(2)}` +
    (g.same ? " (you played the bot's set)" : "");
  div.appendChild(text);
  return div;
}
