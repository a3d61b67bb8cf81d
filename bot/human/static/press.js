// daide-mcts human: the press panel.  It follows the seat's state as human.js receives it
// (a "seat" event on the document, from the /api/events stream) and shows its "press" part:
// each message heard or sent in plain English beside its DAIDE text, YES/NO buttons under a
// proposal heard, and what is agreed with whom.  Proposals are built from menus (peace,
// alliance, draw; orders and demilitarised zones at level 20) or typed as DAIDE text, and
// sent to /api/press; the answers to /api/press/answer.  The seat reads and checks all of
// it at the game's level: a refusal comes back as one line, shown under the form.  The
// panel stays hidden in a game without press (level 0).

const KEY = new URLSearchParams(location.search).get("key") || "";

const KINDS = {
  peace: { label: "peace", powers: "with", words: null },
  alliance: { label: "alliance against...", powers: "allies", against: true, words: null },
  draw: { label: "a draw", words: null },
  orders: { label: "orders (XDO)", words: "your orders, e.g. A PAR - BUR; F BRE - MAO" },
  dmz: { label: "demilitarised zone (DMZ)", powers: "kept clear by", words: "provinces, e.g. BUR PIC" },
  text: { label: "DAIDE text", words: "e.g. PRP (PCE (ENG FRA))" },
};

const panel = { press: null, powers: null, kinds: null, refused: null };
const $ = (id) => document.getElementById(id);

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "X-Seat-Key": KEY, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error((await response.text()).trim() || `HTTP ${response.status}`);
  return response.json();
}

function problem(text) {
  $("press-problem").hidden = !text;
  $("press-problem").textContent = text || "";
}

// --- the form -----------------------------------------------------------------------------

function build() {
  $("press").innerHTML = `
    <h2>Press <span id="press-level"></span></h2>
    <ul id="press-lines"></ul>
    <h3>Agreed</h3>
    <ul id="press-agreements"></ul>
    <form id="press-form">
      <div class="powers" id="press-to"></div>
      <label>propose <select id="press-kind"></select></label>
      <div class="powers" id="press-powers"></div>
      <div class="powers" id="press-against"></div>
      <input id="press-words" autocomplete="off" aria-label="press words">
      <button type="submit" id="press-send">send</button>
    </form>
    <div id="press-problem" hidden></div>
    <div id="press-status"></div>`;
  $("press-kind").addEventListener("change", showKind);
  $("press-form").addEventListener("submit", send);
  $("press-lines").addEventListener("click", answer);
}

function checkboxes(id, title, powers) {
  $(id).innerHTML = `<span class="label">${escapeHtml(title)}:</span>` + powers
    .map((p) => `<label><input type="checkbox" value="${escapeHtml(p)}"> ${escapeHtml(p)}</label>`)
    .join("");
}

function checked(id) {
  return [...$(id).querySelectorAll("input:checked")].map((i) => i.value);
}

function showKind() {
  const kind = KINDS[$("press-kind").value] || {};
  $("press-powers").hidden = !kind.powers;
  if (kind.powers) $("press-powers").querySelector(".label").textContent = `${kind.powers} (you and):`;
  $("press-against").hidden = !kind.against;
  $("press-words").hidden = !kind.words;
  $("press-words").placeholder = kind.words || "";
}

function updateForm(press) {
  const powers = press.powers.join(" ");
  if (powers !== panel.powers) {
    panel.powers = powers;
    checkboxes("press-to", "to", press.powers);
    checkboxes("press-powers", "with", press.powers);
    checkboxes("press-against", "against", press.powers);
  }
  const kinds = press.kinds.join(" ");
  if (kinds !== panel.kinds) {
    panel.kinds = kinds;
    const was = $("press-kind").value;
    $("press-kind").innerHTML = press.kinds
      .map((k) => `<option value="${k}">${escapeHtml(KINDS[k] ? KINDS[k].label : k)}</option>`)
      .join("");
    if (press.kinds.includes(was)) $("press-kind").value = was;
    showKind();
  }
}

// The request for what the form says (the seat checks every part of it).
function request() {
  const to = checked("press-to");
  const kind = $("press-kind").value;
  const me = panel.press.power ? [panel.press.power] : [];
  const chosen = checked("press-powers");
  const others = chosen.length ? chosen : to;
  const words = $("press-words").value.trim();
  const forms = {
    peace: () => ({ kind, powers: [...me, ...others] }),
    alliance: () => ({ kind, allies: [...me, ...others], enemies: checked("press-against") }),
    draw: () => ({ kind }),
    orders: () => ({ kind, orders: words.split(/[;,]/).map((o) => o.trim()).filter(Boolean) }),
    dmz: () => ({ kind, powers: [...me, ...others], provinces: words.split(/[\s,;]+/).filter(Boolean) }),
    text: () => ({ kind, text: words }),
  };
  return { to, press: (forms[kind] || forms.text)() };
}

async function send(e) {
  e.preventDefault();
  try {
    const sent = await api("/api/press", request());
    problem("");
    $("press-status").textContent = `sent: ${sent.english}`;
    $("press-words").value = "";
  } catch (err) {
    problem(err.message);
  }
}

async function answer(e) {
  const button = e.target.closest("button[data-yes]");
  if (!button) return;
  button.disabled = true;
  try {
    const sent = await api("/api/press/answer", { line: Number(button.dataset.line), yes: button.dataset.yes === "1" });
    problem("");
    $("press-status").textContent = `sent: ${sent.english}`;
  } catch (err) {
    problem(err.message);
    button.disabled = false;
  }
}

// --- the record ---------------------------------------------------------------------------

function lineHtml(line) {
  const to = line.way === "out" ? ` (to ${line.recipients.join(", ")})` : "";
  const answers = Object.entries(line.answers).map(([p, a]) => `${p}: ${a}`).join(", ");
  const buttons = line.answerable
    ? `<button data-line="${line.line}" data-yes="1" class="yes">yes</button>` +
      `<button data-line="${line.line}" data-yes="0" class="no">no</button>`
    : "";
  return `<li class="${line.way}" data-line="${line.line}">
    <span class="english">${escapeHtml(line.english)}${escapeHtml(to)}</span>
    <code class="daide">${escapeHtml(line.text)}</code>
    ${line.note ? `<span class="note">${escapeHtml(line.note)}</span>` : ""}
    ${line.answer ? `<span class="answer">you answered ${escapeHtml(line.answer)}</span>` : ""}
    ${answers ? `<span class="answers">${escapeHtml(answers)}</span>` : ""}
    ${buttons}</li>`;
}

function render(press) {
  panel.press = press;
  const on = Boolean(press && press.level >= 10);
  $("press").hidden = !on;
  if (!on) return;
  if (!$("press-form")) build();
  updateForm(press);
  $("press-level").textContent = `(level ${press.level})`;
  $("press-lines").innerHTML = press.lines.length
    ? press.lines.slice().reverse().map(lineHtml).join("")
    : `<li class="none">no press yet</li>`;
  $("press-agreements").innerHTML = press.agreements.length
    ? press.agreements.map((a) => `<li><span class="english">${escapeHtml(a.partner)}: ${escapeHtml(a.english)}</span>
        <code class="daide">${escapeHtml(a.text)}</code>${a.since ? ` since ${escapeHtml(a.since)}` : ""}</li>`).join("")
    : `<li class="none">nothing agreed</li>`;
  if (press.refused && press.refused !== panel.refused) problem(`not sent: ${press.refused}`);
  panel.refused = press.refused;
}

document.addEventListener("seat", (e) => render(e.detail.press));
