// The coach on the seat's page: the grade of the last phase the person played (from the
// seat's state's "coach", graded in the background as `daide-mcts review` grades), the
// bot's better set drawn on demand, and at the game's end the review: every phase graded,
// the evaluation graph, the three moments that cost most, and "try again" from one of them
// (/api/moment, /api/try: the same position, the others' recorded orders, new orders).
// A plain ES module, used by human.js.

import { el } from "/view/mapdraw.js";
import { LABEL_COLOURS, gradeLine, signed } from "/static/story.js";

const EVAL = { width: 360, height: 130, left: 24, right: 8, top: 8, bottom: 18 };
const SERIES = { bot_centres: "#7b1fa2", played_centres: "#111" }; // the evaluation graph's lines
const $ = (id) => document.getElementById(id);

export class Coach {
  // ``story`` shows phases; ``api(path, body)`` asks the seat.
  constructor(story, api) {
    this.story = story;
    this.api = api;
    this.seat = null;
    this.reviewing = false;
    this.moment = null;
    this.build();
  }

  build() {
    const box = $("coach");
    box.innerHTML = '<h2>Your grades</h2><div id="grade-now"></div>' +
      '<div id="coach-buttons"><button id="show-bot-set" hidden>show the bot\'s set</button>' +
      '<button id="open-review" hidden>review the game</button></div>' +
      '<div id="review" hidden></div><div id="try" hidden></div>';
    $("show-bot-set").addEventListener("click", () => this.showBetter(this.latest()));
    $("open-review").addEventListener("click", () => { this.reviewing = !this.reviewing; this.render(this.seat); });
  }

  latest() {
    const coach = this.seat && this.seat.coach;
    return coach && coach.grades.length ? coach.grades[coach.grades.length - 1] : null;
  }

  indexOf(turn) {
    return this.story.phases().findIndex((p) => p.turn === turn);
  }

  showBetter(grade) {
    if (!grade) return;
    this.story.better = true;
    this.story.go(this.indexOf(grade.turn));
  }

  render(seat) {
    this.seat = seat;
    if (!seat) return;
    const coach = seat.coach;
    const now = $("grade-now");
    now.replaceChildren();
    const latest = this.latest();
    if (latest) now.appendChild(gradeLine(latest));
    else now.textContent = coach && coach.pending.length ? "your orders are being graded..." : "no phase graded yet";
    if (coach && coach.pending.length && latest) {
      const wait = document.createElement("div");
      wait.className = "note";
      wait.textContent = `grading ${coach.pending.join(", ")}...`;
      now.appendChild(wait);
    }
    if (coach && coach.problem) {
      const p = document.createElement("div");
      p.className = "bad";
      p.textContent = coach.problem;
      now.appendChild(p);
    }
    document.body.dataset.grades = coach ? String(coach.grades.length) : "0";
    $("show-bot-set").hidden = !latest || latest.same;
    const over = seat.info.over;
    $("open-review").hidden = !over || !coach;
    $("open-review").textContent = this.reviewing ? "close the review" : "review the game";
    $("review").hidden = !(over && this.reviewing);
    $("try").hidden = !(over && this.reviewing && this.moment);
    if (over && this.reviewing) this.renderReview(coach);
  }

  renderReview(coach) {
    const box = $("review");
    box.replaceChildren();
    const head = document.createElement("div");
    head.className = "note";
    head.textContent = `every phase graded (${coach.rollouts} paired rollouts, the search at ${coach.iterations} ` +
      `iterations, seed ${coach.seed}: daide-mcts review gives the same)` +
      (coach.pending.length ? `; still grading ${coach.pending.join(", ")}` : "");
    box.appendChild(head);
    box.appendChild(this.evaluationGraph(coach.grades));
    const legend = document.createElement("div");
    legend.id = "evaluation-legend";
    legend.className = "note";
    legend.innerHTML = `<span style="color:${SERIES.played_centres}">\u2014 your orders</span> ` +
      `<span style="color:${SERIES.bot_centres}">\u2014 the bot's set</span>: the centres each is expected to own`;
    box.appendChild(legend);
    const table = document.createElement("table");
    table.id = "review-table";
    table.innerHTML = "<thead><tr><th>phase</th><th>label</th><th>yours</th><th>bot's</th><th>difference</th></tr></thead>";
    const body = document.createElement("tbody");
    for (const g of coach.grades) {
      const tr = document.createElement("tr");
      tr.dataset.turn = g.turn;
      tr.innerHTML = `<td>${g.turn}</td><td><span class="grade-label" style="background:${LABEL_COLOURS[g.label]}">${g.label}</span></td>` +
        `<td class="num">${g.played_centres.toFixed(2)}</td><td class="num">${g.bot_centres.toFixed(2)}</td>` +
        `<td class="num">${signed(-g.loss)} \u00b1 ${((g.high - g.low) / 2).toFixed(2)}</td>`;
      tr.addEventListener("click", () => this.story.go(this.indexOf(g.turn)));
      body.appendChild(tr);
    }
    table.appendChild(body);
    box.appendChild(table);
    const h = document.createElement("h3");
    h.textContent = coach.costly.length ? "The moments that cost most" : "No phase cost you a centre.";
    box.appendChild(h);
    const list = document.createElement("ol");
    list.id = "costly";
    for (const turn of coach.costly) {
      const g = coach.grades.find((x) => x.turn === turn);
      const li = document.createElement("li");
      li.dataset.turn = turn;
      li.textContent = `${turn}: ${g.loss.toFixed(2)} centres (${g.label}) `;
      const show = document.createElement("button");
      show.textContent = "the bot's set";
      show.className = "costly-better";
      show.addEventListener("click", () => this.showBetter(g));
      const again = document.createElement("button");
      again.textContent = "try again";
      again.className = "try-again";
      again.addEventListener("click", () => this.openMoment(turn));
      const buttons = document.createElement("span");
      buttons.className = "costly-buttons";
      buttons.append(show, again);
      li.append(buttons);
      list.appendChild(li);
    }
    box.appendChild(list);
  }

  // The expected centres of the person's set and the bot's at each graded phase.
  evaluationGraph(grades) {
    const { width: W, height: H, left, right, top, bottom } = EVAL;
    const svg = el("svg", { id: "evaluation", viewBox: `0 0 ${W} ${H}`, role: "img",
                            "aria-label": "expected centres of your orders and of the bot's" });
    const values = grades.flatMap((g) => [g.played_centres, g.bot_centres]);
    const lo = Math.floor(Math.min(...values, 99)), hi = Math.ceil(Math.max(...values, 0));
    const span = Math.max(1, hi - lo);
    const x = (i) => left + (grades.length <= 1 ? 0 : (W - left - right) * i / (grades.length - 1));
    const y = (v) => H - bottom - (H - top - bottom) * (v - lo) / span;
    for (const v of [lo, hi]) {
      el("text", { x: left - 4, y: y(v) + 3, "text-anchor": "end" }, svg).textContent = v;
    }
    for (const [key, colour] of Object.entries(SERIES)) {
      const d = grades.map((g, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(g[key]).toFixed(1)}`).join(" ");
      el("path", { d, fill: "none", stroke: colour, "stroke-width": 2, "data-series": key }, svg);
    }
    grades.forEach((g, i) => {
      el("circle", { cx: x(i), cy: y(g.played_centres), r: 3.5, fill: LABEL_COLOURS[g.label] }, svg);
    });
    return svg;
  }

  async openMoment(turn) {
    try {
      this.moment = await this.api(`/api/moment?turn=${encodeURIComponent(turn)}`);
    } catch (err) {
      this.moment = null;
      $("try").textContent = err.message;
      $("try").hidden = false;
      return;
    }
    this.story.go(this.indexOf(turn));
    this.renderMoment();
    this.render(this.seat);
  }

  renderMoment() {
    const m = this.moment;
    const box = $("try");
    box.replaceChildren();
    box.dataset.turn = m.turn;
    const h = document.createElement("h3");
    h.textContent = `Try ${m.turn} again: the others play what they played`;
    box.appendChild(h);
    const played = new Set(m.played);
    for (const [key, texts] of Object.entries(m.options)) {
      const row = document.createElement("label");
      row.className = "try-row";
      row.textContent = `${key} `;
      const select = document.createElement("select");
      select.dataset.key = key;
      const none = document.createElement("option");
      none.value = "";
      none.textContent = m.kind === "movement" ? "(hold)" : "(nothing)";
      select.appendChild(none);
      for (const text of texts) {
        const o = document.createElement("option");
        o.value = text;
        o.textContent = text;
        if (played.has(text)) o.selected = true;
        select.appendChild(o);
      }
      row.appendChild(select);
      box.appendChild(row);
    }
    const go = document.createElement("button");
    go.id = "try-play";
    go.textContent = "play it";
    go.addEventListener("click", () => this.play());
    box.appendChild(go);
    const out = document.createElement("div");
    out.id = "try-result";
    box.appendChild(out);
  }

  async play() {
    const m = this.moment;
    const orders = [...$("try").querySelectorAll("select")].map((s) => s.value).filter(Boolean);
    const out = $("try-result");
    try {
      const answer = await this.api("/api/try", { turn: m.turn, orders });
      this.showOutcome(answer);
      this.story.overlay = { index: this.indexOf(m.turn), orders: answer.tried.results.map(asOrder) };
      this.story.go(this.indexOf(m.turn), { keepOverlay: true });
    } catch (err) {
      out.textContent = err.message;
      out.className = "bad";
    }
  }

  showOutcome(answer) {
    const out = $("try-result");
    out.className = "";
    const me = this.seat.info.power;
    const side = (title, o) => {
      const mine = o.results.filter((r) => r.power === me);
      return `<td><b>${title}</b><ul>${mine.map((r) => `<li class="${r.ok ? "" : "bad"}">${r.text}${r.outcome ? ` (${r.outcome})` : ""}</li>`).join("")}</ul>` +
        `then (${o.turn}): ${o.centres} centres, ${o.units} units${o.dislodged ? `, ${o.dislodged} dislodged` : ""}</td>`;
    };
    out.dataset.centres = String(answer.tried.centres);
    out.dataset.units = String(answer.tried.units);
    out.innerHTML = `<table><tr>${side("your new orders", answer.tried)}` +
      (answer.happened ? side("what happened", answer.happened) : "<td>(the game ended here)</td>") + "</tr></table>";
  }
}

// A result of a phase played again as the viewer's order JSON (with its result and text).
function asOrder(r) {
  return { ...r.draw, text: r.text, outcome: r.outcome };
}
