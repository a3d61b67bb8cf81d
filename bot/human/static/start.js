// daide-mcts start: the form that sets a local game up.  The choices come from /api/options
// (the maps this machine serves, the opponents it can run); "play" posts the form to
// /api/start, which checks it (a wrong field is a 400 with one line, shown as is), starts
// the game, and /api/game then says how it goes until the person's seat page listens:
// the page goes there.  Every request carries the page's key (from its address).

const KEY = new URLSearchParams(location.search).get("key") || "";
const POLL_MS = 500;
const KIND_NAMES = { mcts: "our search (MCTS)", dumbbot: "DumbBot", random: "random orders", albert: "Albert 5.5" };
const $ = (id) => document.getElementById(id);

const page = { options: null };

async function api(path, body) {
  const options = { headers: { "X-Start-Key": KEY } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
  return response.json();
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function currentMap() {
  return page.options.maps.find((m) => m.name === $("map").value);
}

// The seat choices: each kind this machine runs, Parang's bots one by one.
function seatChoices() {
  const choices = [];
  for (const kind of page.options.kinds) {
    if (kind === "parang") {
      for (const bot of page.options.parang_bots) choices.push([`parang:${bot}`, `Parang's ${bot}`]);
    } else {
      choices.push([kind, KIND_NAMES[kind] || kind]);
    }
  }
  return choices;
}

function fillSelect(select, choices, keep) {
  select.replaceChildren(...choices.map(([v, t]) => option(v, t)));
  if (keep && choices.some(([v]) => v === keep)) select.value = keep;
}

// One row per opponent: with a chosen power, the map's other powers in order.
function drawSeats() {
  const map = currentMap();
  const mine = $("power").value;
  const names = mine === "any"
    ? map.powers.slice(1).map((_, i) => `seat ${i + 2}`)
    : map.powers.filter((p) => p !== mine);
  const body = $("seats").tBodies[0];
  const before = [...body.querySelectorAll("select")].map((s) => s.value);
  body.replaceChildren();
  names.forEach((name, i) => {
    const row = body.insertRow();
    const label = row.insertCell();
    label.className = "power";
    label.textContent = name;
    const select = document.createElement("select");
    select.dataset.seat = String(i);
    select.setAttribute("aria-label", `opponent ${name}`);
    fillSelect(select, seatChoices(), before[i] || (i === 0 ? "mcts" : "dumbbot"));
    row.insertCell().append(select);
  });
}

function drawMap() {
  const map = currentMap();
  $("map-about").textContent = `${map.description || map.name}: ${map.powers.length} powers, from ${map.first_year}`;
  const keep = $("power").value;
  fillSelect($("power"), [["any", "let it be dealt"], ...map.powers.map((p) => [p, p])], keep);
  $("final-year").min = String(map.first_year);
  $("final-year").value = String(map.first_year + page.options.defaults.years - 1);
  drawSeats();
}

function formBody() {
  const number = (id) => Number($(id).value);
  const opponents = [...$("seats").querySelectorAll("select")].map((s) => {
    const [kind, bot] = s.value.split(":");
    return bot === undefined ? { kind } : { kind, bot };
  });
  return {
    map: $("map").value,
    power: $("power").value,
    opponents,
    think: number("think"),
    move: number("move"),
    retreat: number("retreat"),
    build: number("build"),
    press: number("press"),
    final_year: number("final-year"),
  };
}

function showProgress(status) {
  const lines = [`${status.state}${status.turn ? ` (${status.turn})` : ""}`, ...status.notes.slice(-4)];
  $("progress").hidden = false;
  $("progress").textContent = lines.join("\n");
}

async function follow() {
  for (;;) {
    const status = await api("/api/game");
    showProgress(status);
    if (status.seat) {
      location.assign(status.seat);
      return;
    }
    if (status.state === "failed" || status.state === "over") {
      problem(status.error || `the game ended: ${status.result || "no result"}`);
      $("play").disabled = false;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function play(event) {
  event.preventDefault();
  problem(null);
  $("play").disabled = true;
  try {
    showProgress(await api("/api/start", formBody()));
  } catch (error) {
    problem(error.message);
    $("play").disabled = false;
    return;
  }
  try {
    await follow();
  } catch (error) {
    problem(error.message);
    $("play").disabled = false;
  }
}

async function main() {
  try {
    page.options = await api("/api/options");
  } catch (error) {
    problem(error.message);
    return;
  }
  const o = page.options;
  fillSelect($("map"), o.maps.map((m) => [m.name, m.name]), o.defaults.map);
  fillSelect($("press"), o.press_levels.map((l) => [String(l), l === 0 ? "0 (no press)" : String(l)]), "0");
  fillSelect($("all-seats"), [["", "choose for every seat..."], ...seatChoices()], "");
  for (const id of ["move", "retreat", "build", "think"]) $(id).value = String(o.defaults[id]);
  $("map").addEventListener("change", drawMap);
  $("power").addEventListener("change", drawSeats);
  $("all-seats").addEventListener("change", () => {
    const value = $("all-seats").value;
    if (value) for (const s of $("seats").querySelectorAll("select")) s.value = value;
    $("all-seats").value = "";
  });
  $("setup").addEventListener("submit", play);
  drawMap();
  document.body.dataset.ready = "1";
}

main();
