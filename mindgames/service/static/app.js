// mindgames web page: plain JavaScript, no build step, no CDN.  Everything the page
// knows about puzzles comes from the API; it only draws grids and sends them.
"use strict";

const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const $ = (id) => document.getElementById(id);

// -- the API ------------------------------------------------------------------------------------
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = $("token").value || localStorage.getItem("mindgames-token");
  if (token) headers["Authorization"] = "Bearer " + token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    return { ok: false, status: 0, data: { error: "the server cannot be reached (" + err.message + ")" } };
  }
  let data = null;
  try { data = await response.json(); } catch (err) { data = { error: "the server sent no JSON (HTTP " + response.status + ")" }; }
  if (response.status === 401) {
    $("token-box").hidden = false;
    $("token").focus();
  }
  return { ok: response.ok, status: response.status, data };
}

function say(id, text, tone) {
  const el = $(id);
  el.textContent = text;
  el.className = "message " + (tone || "info");
}

// -- links: a pasted link or game ID is read by the server; "Share link" asks it for links ------
async function readPasted(kind, text, messageId) {
  const reply = await api("POST", `/v1/${kind}/read`, { puzzle: text });
  if (!reply.ok) { say(messageId, "Invalid: " + (reply.data.error || "HTTP " + reply.status), "bad"); return null; }
  return reply.data.puzzle;
}

async function sharePuzzle(kind, body, messageId) {
  const reply = await api("POST", `/v1/${kind}/read`, { ...body, links: true });
  if (!reply.ok) { say(messageId, "Invalid: " + (reply.data.error || "HTTP " + reply.status), "bad"); return; }
  const links = Object.entries(reply.data.links || {});
  const shown = links.filter(([, link]) => link.puzzle);
  if (!shown.length) { say(messageId, "No site shows this puzzle: " + links.map(([site, link]) => `${site}: ${link.error}`).join("; "), "bad"); return; }
  let copied = "";
  try { await navigator.clipboard.writeText(shown[0][1].puzzle); copied = " (copied)"; } catch (err) { copied = ""; }
  say(messageId, shown.map(([site, link]) => `${site}: ${link.puzzle}`).join("  ") + copied, "info");
}

function ms(seconds) {
  return seconds < 1 ? (seconds * 1000).toFixed(1) + " ms" : seconds.toFixed(2) + " s";
}

// -- tabs: one per kind the server lists (GET /v1/kinds), then Jobs -------------------------------------
// The engines come from GET /v1/kinds (each kind lists those that answer it); until they
// have come, a request names none and the server's default answers it.
function engineOf(select) {
  return select.value || undefined;
}
function fillEngines(select, engines) {
  const chosen = select.value;
  select.replaceChildren();
  for (const name of engines) select.add(new Option(name, name));
  if (engines.includes(chosen)) select.value = chosen;
}
function addTab(name, label) {
  const button = document.createElement("button");
  button.setAttribute("role", "tab");
  button.dataset.panel = name;
  button.textContent = label;
  button.classList.toggle("active", $(name) !== null && $(name).classList.contains("active"));
  button.addEventListener("click", () => {
    document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b === button));
    document.querySelectorAll(".panel").forEach((p) => p.classList.toggle("active", p.id === button.dataset.panel));
    if (button.dataset.panel === "jobs") refreshJobs();
  });
  $("tabs").appendChild(button);
}
let kindsListed = false;
async function loadKinds() {
  const reply = await api("GET", "/v1/kinds");
  // Without a token, a server started with --token-file answers 401 to everything: the page
  // has no tabs to show, and says so (the token box is shown by api()).
  $("token-needed").hidden = reply.status !== 401;
  if (!reply.ok) return;
  kindsListed = true;
  serverLimits = reply.data.limits || null;
  jobCost();
  $("tabs").replaceChildren();
  for (const kind of reply.data.kinds) {
    // Kinds with a panel of their own (drawn boards, the crossing player) use it; any
    // other grid kind gets a text panel: paste a puzzle, read the answer.
    if (!$(kind.kind)) gridKindPanel(kind);
    const select = $(kind.kind + "-engine");
    if (select) fillEngines(select, kind.engines);
    addTab(kind.kind, kind.kind[0].toUpperCase() + kind.kind.slice(1));
  }
  addTab("jobs", "Jobs");
}
$("token").addEventListener("change", () => {
  localStorage.setItem("mindgames-token", $("token").value);
  // What failed for want of a token (the kinds, the crossing presets) is asked again with it.
  if (!kindsListed) loadKinds();
  if (!Object.keys(presets).length) loadPresets();
});

// What a certificate says, after the answer it proves ("certify" checked).
function certified(result) {
  const c = result.certificate;
  if (!c) return "";
  if (!c.checked) return ` (not certified: ${c.reason || "the proof was not checked"})`;
  const s = c.seconds || {};
  const lemmas = `${c.lemmas} lemma${c.lemmas === 1 ? "" : "s"}`;
  return ` (certified: ${c.kind.toUpperCase()}, checked; ${lemmas}, ${ms((s.solve || 0) + (s.proof || 0) + (s.check || 0))})`;
}

// -- a grid of cells you can click or type into -------------------------------------------------------
// spec: rows, cols, values (the givens: 0/null = blank), cycle (value -> next value),
// fromKey (key -> value | undefined), show (value -> text), borders (r, c) -> [right, bottom],
// changed () (the puzzle was edited: every result shown for it goes).
// What the page draws on a cell has one meaning each (the legend under the boards says it):
// a given (black, bold), a solved cell (red), a hinted cell (blue: a hint placed it; it is sent
// with the givens until undone), a suggested given (green, with its value: Explain's givens that
// make the puzzle unique); backgrounds mark clashing givens (red) and open cells (yellow: cells
// two solutions differ in, from Check or Explain); an outline marks a hint's reason.
class Board {
  constructor(element, spec) {
    this.el = element;
    this.spec = spec;
    this.solution = null;
    this.marks = {};      // index -> css class (clash, open, because)
    this.suggested = {};  // index -> value: givens Explain suggests
    this.hinted = [];     // [index, value] in the order the hints came (Undo hint takes the last)
    this.focus = 0;
    this.el.addEventListener("keydown", (event) => this.key(event));
  }
  get size() { return this.spec.rows * this.spec.cols; }
  isBlank(v) { return v === null || v === undefined || v === this.spec.blank; }
  // the answer shown (solution, marks, suggestions) goes; hints stay (undo them one by one)
  clearResult() { this.solution = null; this.marks = {}; this.suggested = {}; }
  clearHints() { this.hinted = []; }
  // The puzzle as sent to the server: the givens with the hinted cells filled in.
  puzzleValues() {
    const values = this.spec.values.slice();
    for (const [i, v] of this.hinted) values[i] = v;
    return values;
  }
  render() {
    const { rows, cols } = this.spec;
    const hinted = new Map(this.hinted);
    this.el.style.gridTemplateColumns = `repeat(${cols}, auto)`;
    this.el.classList.toggle("small", cols > 12);
    this.el.replaceChildren();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.tabIndex = i === this.focus ? 0 : -1;
        cell.dataset.row = r; cell.dataset.col = c; cell.dataset.index = i;
        const given = this.spec.values[i];
        let value = given;
        if (!this.isBlank(given)) cell.classList.add("given");
        else if (hinted.has(i)) { value = hinted.get(i); cell.classList.add("hinted"); }
        else if (i in this.suggested) { value = this.suggested[i]; cell.classList.add("suggested"); }
        else if (this.solution) { value = this.solution[r][c]; cell.classList.add("solved"); }
        cell.textContent = this.isBlank(value) ? "" : this.spec.show(value);
        if (!this.isBlank(value)) cell.classList.add("v" + value);
        const [right, bottom] = this.spec.borders(r, c);
        if (right) cell.classList.add("bR");
        if (bottom) cell.classList.add("bB");
        if (c === cols - 1) cell.classList.add("lastC");
        if (r === rows - 1) cell.classList.add("lastR");
        if (this.spec.shade && this.spec.shade(r, c)) cell.classList.add("diag");
        if (this.marks[i]) cell.classList.add(this.marks[i]);
        cell.addEventListener("click", () => { this.focus = i; this.set(i, this.spec.cycle(this.spec.values[i]), false); });
        this.el.appendChild(cell);
      }
    }
  }
  set(i, value, advance) {
    this.spec.values[i] = value;
    this.clearResult();
    this.clearHints();
    if (this.spec.changed) this.spec.changed();
    if (advance) this.focus = Math.min(this.size - 1, i + 1);
    this.render();
    this.el.children[this.focus].focus();
  }
  move(delta) {
    this.focus = Math.max(0, Math.min(this.size - 1, this.focus + delta));
    this.render();
    this.el.children[this.focus].focus();
  }
  key(event) {
    const target = event.target.closest(".cell");
    if (!target) return;
    this.focus = Number(target.dataset.index);
    const cols = this.spec.cols;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
    if (event.key in moves) { event.preventDefault(); this.move(moves[event.key]); return; }
    if (event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      this.set(this.focus, this.spec.blank, false);
      if (event.key === "Backspace") this.move(-1);
      return;
    }
    if (event.key.length !== 1) return;
    const value = this.spec.fromKey(event.key);
    if (value !== undefined) { event.preventDefault(); this.set(this.focus, value, true); }
  }
}

// Every result area of a grid kind's panel: the board's answer and hints, the message, the
// comparison table.  Emptied whenever the puzzle changes (an edit, Load, an example, a new
// size, another variant or rule set), so nothing shown belongs to another puzzle.
function clearResults(kind, board) {
  board.clearResult();
  board.clearHints();
  say(kind + "-message", "");
  $(kind + "-comparison").replaceChildren();
  $(kind + "-undo").disabled = true;
}

// -- Sudoku ----------------------------------------------------------------------------------------------
function boxShape(size) {
  let best = null;
  for (let r = 2; r * r <= size; r++) if (size % r === 0) best = [r, size / r];
  return best;
}

const sudoku = {
  size: 9, box: [3, 3], regions: null, diagonals: false, values: new Array(81).fill(0),
};
const sudokuBoard = new Board($("sudoku-grid"), {
  get rows() { return sudoku.size; },
  get cols() { return sudoku.size; },
  get values() { return sudoku.values; },
  blank: 0,
  cycle: (v) => (v + 1) % (sudoku.size + 1),
  fromKey: (key) => {
    if (".0_ ".includes(key)) return 0;
    const v = SYMBOLS.indexOf(key.toUpperCase()) + 1;
    return v >= 1 && v <= sudoku.size ? v : undefined;
  },
  show: (v) => SYMBOLS[v - 1],
  borders: (r, c) => {
    const n = sudoku.size;
    if (sudoku.regions) {
      const at = (rr, cc) => sudoku.regions[rr * n + cc];
      return [c < n - 1 && at(r, c) !== at(r, c + 1), r < n - 1 && at(r, c) !== at(r + 1, c)];
    }
    if (!sudoku.box) return [false, false];
    return [(c + 1) % sudoku.box[1] === 0 && c < n - 1, (r + 1) % sudoku.box[0] === 0 && r < n - 1];
  },
  shade: (r, c) => sudoku.diagonals && (r === c || r + c === sudoku.size - 1),
  changed: () => clearResults("sudoku", sudokuBoard),
});

function sudokuReset(size) {
  sudoku.size = size;
  sudoku.box = boxShape(size);
  sudoku.regions = null;
  sudoku.values = new Array(size * size).fill(0);
  sudokuVariants.clear();
  sudokuBoard.focus = 0;
  clearResults("sudoku", sudokuBoard);
  sudokuBoard.render();
}

function ensureSizeOption(select, size, label) {
  if (![...select.options].some((o) => o.value === String(size))) select.add(new Option(label, String(size)));
  select.value = String(size);
}

$("sudoku-size").addEventListener("change", () => sudokuReset(Number($("sudoku-size").value)));
$("sudoku-diagonals").addEventListener("change", () => {
  sudoku.diagonals = $("sudoku-diagonals").checked;
  clearResults("sudoku", sudokuBoard);
  sudokuBoard.render();
});
$("sudoku-clear").addEventListener("click", () => sudokuReset(sudoku.size));
$("sudoku-clear-solution").addEventListener("click", () => { clearResults("sudoku", sudokuBoard); sudokuBoard.render(); });

// A pasted puzzle without variant rules goes onto the board (one with rules stays text the server
// reads, and is drawn with its answer: variants.js).
function sudokuLoadClassic(puzzle) {
  if (!puzzle || Object.keys(puzzle).some((key) => !["grid", "box", "diagonals", "regions"].includes(key))) return;
  const size = puzzle.grid.length;
  ensureSizeOption($("sudoku-size"), size, `${size}x${size}`);
  sudokuReset(size);
  sudoku.values = puzzle.grid.flat();
  if (puzzle.box) sudoku.box = puzzle.box;
  if (puzzle.regions) sudoku.regions = puzzle.regions.split("");
  sudoku.diagonals = Boolean(puzzle.diagonals);
  $("sudoku-diagonals").checked = sudoku.diagonals;
  sudokuBoard.render();
  say("sudoku-message", `Loaded a ${size}x${size} puzzle.`, "info");
}
$("sudoku-share").addEventListener("click", () => sharePuzzle("sudoku", { puzzle: sudokuPuzzle() }, "sudoku-message"));

// One line (N*N symbols, optionally a space and N*N jigsaw region labels) onto the board;
// a link or JSON is read by the server.
function sudokuLoad(text, diagonals) {
  if (sudokuVariants.load(text)) {
    readPasted("sudoku", text.trim(), "sudoku-message").then(sudokuLoadClassic);
    return;
  }
  const fields = text.trim().split(/\s+/);
  const line = fields[0] || "";
  const size = Math.round(Math.sqrt(line.length));
  if (!line || size * size !== line.length || size < 4 || size > 35) {
    say("sudoku-message", `A puzzle line has N*N symbols (81 for 9x9); this one has ${line.length}.`, "bad");
    return;
  }
  const values = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (".0_".includes(ch)) { values.push(0); continue; }
    const v = SYMBOLS.indexOf(ch.toUpperCase()) + 1;
    if (v < 1 || v > size) { say("sudoku-message", `Character ${i + 1}: '${ch}' is not a symbol of a ${size}x${size} Sudoku.`, "bad"); return; }
    values.push(v);
  }
  if (fields.length > 1 && fields[1].length !== line.length) {
    say("sudoku-message", `${fields[1].length} region labels for ${line.length} cells.`, "bad");
    return;
  }
  ensureSizeOption($("sudoku-size"), size, `${size}x${size}`);
  sudokuReset(size);
  sudoku.values = values;
  if (fields.length > 1) sudoku.regions = fields[1].split("");
  if (diagonals !== undefined) { sudoku.diagonals = diagonals; $("sudoku-diagonals").checked = diagonals; }
  sudokuBoard.render();
  say("sudoku-message", `Loaded a ${size}x${size} puzzle${sudoku.regions ? " (jigsaw)" : ""}${sudoku.diagonals ? " (X-Sudoku)" : ""}.`, "info");
}
$("sudoku-load").addEventListener("click", () => sudokuLoad($("sudoku-paste").value));

function sudokuPuzzle() {
  if (sudokuVariants.text) return sudokuVariants.puzzle();
  const n = sudoku.size;
  const values = sudokuBoard.puzzleValues();
  const grid = [];
  for (let r = 0; r < n; r++) grid.push(values.slice(r * n, (r + 1) * n));
  const puzzle = { grid, diagonals: sudoku.diagonals };
  if (sudoku.regions) puzzle.regions = sudoku.regions.join("");
  else if (sudoku.box) puzzle.box = sudoku.box;
  return puzzle;
}

// Show an answer (the CLI's JSON object) on a board.
function showResult(board, messageId, action, reply, cols) {
  const result = reply.data;
  if (board === sudokuBoard && result) sudokuVariants.show(result.drawing);
  board.clearResult();
  if (!reply.ok) {
    say(messageId, "Invalid: " + (result.error || "HTTP " + reply.status), "bad");
    board.render();
    return;
  }
  const took = ` (${ms(result.seconds)}, ${result.engine})`;
  if (result.status === "invalid") {
    say(messageId, "Invalid: " + result.error, "bad");
  } else if (result.status === "unsolvable") {
    for (const [r, c] of result.clashing_cells || []) board.marks[r * cols + c] = "clash";
    say(messageId, "Unsolvable: " + result.message + certified(result) + took, "bad");
  } else if (action === "count") {
    const n = result.count;
    const more = result.complete ? "" : " or more (stopped: " + (result.message || "time limit") + ")";
    say(messageId, `${n}${more} solution${n === 1 ? "" : "s"}${took}`, result.complete ? "ok" : "info");
  } else if (result.status === "solved") {
    board.solution = result.solution;
    if (action === "check" && result.uniqueness === "multiple") {
      const [a, b] = result.solutions;
      a.forEach((row, r) => row.forEach((v, c) => { if (v !== b[r][c]) board.marks[r * cols + c] = "open"; }));
      say(messageId, "Multiple solutions: one is shown; the open (yellow) cells differ in another" + took, "info");
    } else if (action === "check") {
      say(messageId, "Unique solution" + certified(result) + took, "ok");
    } else {
      say(messageId, "Solved" + took, "ok");
    }
  } else {
    say(messageId, "Unknown: " + (result.message || "no answer") + took, "info");
  }
  board.render();
}

async function sudokuAsk(action) {
  say("sudoku-message", "Working...", "info");
  const body = { puzzle: sudokuPuzzle(), engine: engineOf($("sudoku-engine")) };
  if (action === "count") { body.limit = 100000; body.time_limit = 5; }
  if (action === "check" && $("sudoku-certify").checked) body.certify = true;
  const reply = await api("POST", `/v1/sudoku/${action}?explain=true`, body);
  showResult(sudokuBoard, "sudoku-message", action, reply, sudoku.size);
}
for (const action of ["solve", "check", "count"]) $("sudoku-" + action).addEventListener("click", () => sudokuAsk(action));

// -- Compare engines: the current puzzle checked on every engine (POST /v1/KIND/compare) -----------------
async function compareEngines(kind, body) {
  const out = $(kind + "-comparison");
  say(kind + "-message", "Comparing engines...", "info");
  out.replaceChildren();
  const reply = await api("POST", `/v1/${kind}/compare`, body);
  if (!reply.ok) { say(kind + "-message", "Invalid: " + (reply.data.error || "HTTP " + reply.status), "bad"); return; }
  const { rows, summary, agreement } = reply.data;
  say(kind + "-message", agreement, summary.agree ? "ok" : "bad");
  // the bar chart: time on a log scale, 1 µs .. 10 s over 20em
  const width = (s) => Math.max(0.2, 20 * (Math.log10(Math.max(s, 1e-6)) + 6) / 7);
  const table = document.createElement("table");
  table.innerHTML = "<tr><th>engine</th><th>answer</th><th>time</th><th></th><th>work</th></tr>";
  for (const row of rows) {
    const tr = table.insertRow();
    const work = Object.entries(row.stats).map(([k, v]) => `${k} ${v.toLocaleString()}`).join(", ");
    for (const text of [row.engine, row.answer, ms(row.seconds), "", work]) tr.insertCell().textContent = text;
    const bar = document.createElement("span");
    bar.className = "bar";
    bar.style.width = width(row.seconds) + "em";
    tr.cells[3].appendChild(bar);
  }
  out.appendChild(table);
}
$("sudoku-compare").addEventListener("click", () => compareEngines("sudoku", { puzzle: sudokuPuzzle() }));

// -- Binairo ----------------------------------------------------------------------------------------------
const binairo = { rows: 6, cols: 6, values: new Array(36).fill(null) };
const binairoBoard = new Board($("binairo-grid"), {
  get rows() { return binairo.rows; },
  get cols() { return binairo.cols; },
  get values() { return binairo.values; },
  blank: null,
  cycle: (v) => (v === null ? 0 : v === 0 ? 1 : null),
  fromKey: (key) => (key === "0" ? 0 : key === "1" ? 1 : ". _".includes(key) ? null : undefined),
  show: (v) => String(v),
  borders: () => [false, false],
  changed: () => clearResults("binairo", binairoBoard),
});
for (const id of ["binairo-rows", "binairo-cols"]) {
  for (let n = 4; n <= 16; n += 2) $(id).add(new Option(String(n), String(n)));
  $(id).value = "6";
  $(id).addEventListener("change", () => binairoReset(Number($("binairo-rows").value), Number($("binairo-cols").value)));
}
function binairoReset(rows, cols) {
  Object.assign(binairo, { rows, cols, values: new Array(rows * cols).fill(null) });
  binairoBoard.focus = 0;
  clearResults("binairo", binairoBoard);
  binairoBoard.render();
}
$("binairo-clear").addEventListener("click", () => binairoReset(binairo.rows, binairo.cols));
$("binairo-clear-solution").addEventListener("click", () => { clearResults("binairo", binairoBoard); binairoBoard.render(); });
$("binairo-rules").addEventListener("change", () => { clearResults("binairo", binairoBoard); binairoBoard.render(); });
// A puzzle the server read (an Unruly game ID) onto the board.
function binairoLoadRead(puzzle) {
  if (!puzzle) return;
  const rows = puzzle.grid.length, cols = puzzle.grid[0].length;
  ensureSizeOption($("binairo-rows"), rows, String(rows));
  ensureSizeOption($("binairo-cols"), cols, String(cols));
  binairoReset(rows, cols);
  binairo.values = puzzle.grid.flat();
  $("binairo-rules").value = puzzle.rules;
  binairoBoard.render();
  say("binairo-message", `Loaded a ${rows}x${cols} ${puzzle.rules} puzzle.`, "info");
}
$("binairo-share").addEventListener("click", () => {
  sharePuzzle("binairo", { puzzle: binairoGrid(), rules: $("binairo-rules").value }, "binairo-message");
});
// A puzzle as one line of N*N cells or rows separated by '/' (or new lines) onto the board.
function binairoLoad(text, rules) {
  text = text.trim();
  if (/:/.test(text)) { readPasted("binairo", text, "binairo-message").then(binairoLoadRead); return; }
  let rows = text.includes("/") || text.includes("\n") ? text.split(/[\/\n]+/).map((s) => s.replace(/\s+/g, "")) : null;
  if (!rows) {
    const flat = text.replace(/\s+/g, "");
    const n = Math.round(Math.sqrt(flat.length));
    if (n * n !== flat.length) { say("binairo-message", `A one-line puzzle has N*N cells; this one has ${flat.length}.`, "bad"); return; }
    rows = [];
    for (let r = 0; r < n; r++) rows.push(flat.slice(r * n, (r + 1) * n));
  }
  const cols = rows[0].length;
  if (rows.some((row) => row.length !== cols) || /[^01.]/.test(rows.join(""))) {
    say("binairo-message", "Rows must be equally long and hold only 0, 1 and '.'.", "bad");
    return;
  }
  ensureSizeOption($("binairo-rows"), rows.length, String(rows.length));
  ensureSizeOption($("binairo-cols"), cols, String(cols));
  if (rules) $("binairo-rules").value = rules;
  binairoReset(rows.length, cols);
  binairo.values = rows.join("").split("").map((ch) => (ch === "." ? null : Number(ch)));
  binairoBoard.render();
  say("binairo-message", `Loaded a ${rows.length}x${cols} puzzle.`, "info");
}
$("binairo-load").addEventListener("click", () => binairoLoad($("binairo-paste").value));
function binairoGrid() {
  const values = binairoBoard.puzzleValues();
  const grid = [];
  for (let r = 0; r < binairo.rows; r++) grid.push(values.slice(r * binairo.cols, (r + 1) * binairo.cols));
  return grid;
}
async function binairoAsk(action) {
  say("binairo-message", "Working...", "info");
  const body = { puzzle: binairoGrid(), rules: $("binairo-rules").value, engine: engineOf($("binairo-engine")) };
  if (action === "count") { body.limit = 100000; body.time_limit = 5; }
  if (action === "check" && $("binairo-certify").checked) body.certify = true;
  const reply = await api("POST", `/v1/binairo/${action}?explain=true`, body);
  showResult(binairoBoard, "binairo-message", action, reply, binairo.cols);
}
for (const action of ["solve", "check", "count"]) $("binairo-" + action).addEventListener("click", () => binairoAsk(action));
$("binairo-compare").addEventListener("click", () => {
  compareEngines("binairo", { puzzle: binairoGrid(), rules: $("binairo-rules").value });
});

// -- examples: one menu per kind, each puzzle loaded as if pasted -------------------------------------------
// (the crossing panel's example is the selected built-in puzzle's document: POST /v1/crossing/export)
const EXAMPLES = {
  sudoku: [
    // label, puzzle line, X-Sudoku
    ["9x9, easy (the seed chapter's first)", ".6.798.127941.5.682.14..957...21.5...563..241.1254.73963.874...1.56.28..4289.1.7.", false],
    ["9x9, hard (17 givens)", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", false],
    ["9x9, several solutions (try Explain)", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.......4......", false],
    ["9x9, clashing givens (try Explain)", "44....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", false],
    ["6x6 (2x3 boxes)", ".3...25.....2..4.......5..621...4.3.", false],
    ["9x9 X-Sudoku (diagonals)", "....12.9....4...75..15.8.....7.21............1............4.........7...6.....82.", true],
    ["9x9 jigsaw", "..8....1..2.56....4..7.2...89.4..52.6....53...7...64....26............8.......9.3 " +
      "111122333111222333112222333444555666444555666444555666777888999777888999777888999", false],
  ],
  binairo: [
    // label, puzzle (rows separated by /), rules
    ["6x6 takuzu", ".0..0./...1../1...../..00../1...../..0...", "takuzu"],
    ["8x8 takuzu", "...1..../...1..../......../....0.../......../.1....../00...0../0...00..", "takuzu"],
    ["8x8 unruly (equal rows allowed)", "..11..../.....0../....1.../0......0/.....0.0/......../00...0../....00..", "unruly"],
    ["10x10 takuzu", "..0...0.../........../.0..1...../......0.../...00...../......0.1./......0..0/...1.1..../.0..1.0.0./0......1.0", "takuzu"],
    ["4x4, several solutions (try Explain)", "1..0/..../..../....", "takuzu"],
  ],
};
for (const [kind, load] of [["sudoku", sudokuLoad], ["binairo", binairoLoad]]) {
  const select = $(kind + "-example");
  EXAMPLES[kind].forEach(([label], i) => select.add(new Option(label, String(i))));
  $(kind + "-load-example").addEventListener("click", () => {
    const [, text, variant] = EXAMPLES[kind][Number(select.value)];
    $(kind + "-paste").value = text;
    load(text, variant);
  });
}

// -- any other grid kind: a puzzle as text in, the answer as text out --------------------------------------
function gridKindPanel(kind) {
  const panel = $("grid-kind-panel").content.firstElementChild.cloneNode(true);
  panel.id = kind.kind;
  const part = (cls) => panel.querySelector("." + cls);
  part("summary").textContent = kind.summary || kind.kind;
  part("puzzle-text").placeholder = (kind.formats || []).join("\n");
  const messageId = kind.kind + "-message";
  part("message").id = messageId;
  part("engine").id = kind.kind + "-engine";
  const ownOptions = Object.entries(kind.options || {}).filter(([name]) => !["time_limit", "limit", "certify"].includes(name));
  for (const [name, help] of ownOptions) {
    const label = document.createElement("label");
    label.textContent = name + " ";
    label.title = help;
    const input = document.createElement("input");
    input.dataset.option = name;
    label.appendChild(input);
    part("options").appendChild(label);
  }
  for (const button of panel.querySelectorAll("button[data-action]")) {
    button.id = `${kind.kind}-${button.dataset.action}`;
    button.addEventListener("click", async () => {
      const action = button.dataset.action;
      const body = { puzzle: part("puzzle-text").value, engine: part("engine").value };
      for (const input of part("options").querySelectorAll("input")) if (input.value) body[input.dataset.option] = input.value;
      if (action === "count") { body.limit = 100000; body.time_limit = 5; }
      if (action === "check" && part("certify").checked) body.certify = true;
      say(messageId, "Working...", "info");
      const reply = await api("POST", `/v1/${kind.kind}/${action}`, body);
      showTextResult(messageId, part("answer"), action, reply);
    });
  }
  document.querySelector("main").insertBefore(panel, $("jobs"));
}
function showTextResult(messageId, answer, action, reply) {
  const result = reply.data;
  answer.textContent = "";
  if (!reply.ok || result.status === "invalid") { say(messageId, "Invalid: " + (result.error || "HTTP " + reply.status), "bad"); return; }
  const took = ` (${ms(result.seconds)}, ${result.engine})`;
  // a grid as rows of values; a flat list (a one-row kind) as one row
  const rows = (grid) => (Array.isArray(grid[0]) ? grid.map((row) => row.join(" ")).join("\n") : grid.join(" "));
  if (result.status === "unsolvable") say(messageId, "Unsolvable: " + result.message + certified(result) + took, "bad");
  else if (action === "count") say(messageId, `${result.count}${result.complete ? "" : " or more"} solutions${took}`, "ok");
  else if (result.status === "solved") {
    const words = action !== "check" ? "Solved" : result.uniqueness === "multiple" ? "Multiple solutions (two shown)" : "Unique solution";
    say(messageId, words + certified(result) + took, "ok");
    answer.textContent = (result.uniqueness === "multiple" ? result.solutions : [result.solution]).map(rows).join("\n\n");
  } else say(messageId, "Unknown: " + (result.message || "no answer") + took, "info");
}

// -- Crossing ---------------------------------------------------------------------------------------------
let presets = {};
const player = { result: null, step: 0, timer: null, busy: false };

async function loadPresets() {
  const reply = await api("GET", "/v1/crossing/presets");
  if (!reply.ok) { say("crossing-message", reply.data.error, "bad"); return; }
  presets = reply.data.presets;
  say("crossing-message", "", "info");
  const select = $("crossing-preset");
  select.replaceChildren();
  for (const [name, info] of Object.entries(presets)) select.add(new Option(info.name, name));
  showParams();
}
function showParams() {
  const info = presets[$("crossing-preset").value];
  const box = $("crossing-params");
  box.replaceChildren();
  if (!info) return;
  for (const [key, value] of Object.entries(info.parameters)) {
    const label = document.createElement("label");
    label.textContent = key.replace(/_/g, " ") + " ";
    const input = document.createElement("input");
    input.type = "number"; input.value = value; input.dataset.param = key; input.style.width = "4.5em";
    label.appendChild(input);
    box.appendChild(label);
  }
  $("crossing-description").textContent = info.description;
}
// Every result area of the crossing panel (the message, the plan player, the explanation) goes
// when the puzzle changes: another built-in puzzle, another parameter, the file edited.
function clearCrossing() {
  stopPlay();
  say("crossing-message", "");
  $("crossing-player").hidden = true;
  $("crossing-explanation").replaceChildren();
}
$("crossing-preset").addEventListener("change", () => {
  document.querySelector('input[name="crossing-source"][value="preset"]').checked = true;
  showParams();
  clearCrossing();
});
$("crossing-params").addEventListener("input", clearCrossing);
$("crossing-file").addEventListener("input", () => {
  document.querySelector('input[name="crossing-source"][value="file"]').checked = true;
  clearCrossing();
});
for (const radio of document.querySelectorAll('input[name="crossing-source"]')) radio.addEventListener("change", clearCrossing);

// The puzzle asked about: the built-in one with its parameters, or the file's text.
function crossingPuzzle() {
  const source = document.querySelector('input[name="crossing-source"]:checked').value;
  if (source === "preset") {
    const params = {};
    for (const input of document.querySelectorAll("#crossing-params input")) params[input.dataset.param] = Number(input.value);
    return { puzzle: $("crossing-preset").value, params };
  }
  const text = $("crossing-file").value.trim();
  return text ? { puzzle: text } : null;
}

// Load an example: the selected built-in puzzle's document (with its parameters) into the file box,
// to read or change.
$("crossing-load-example").addEventListener("click", async () => {
  const puzzle = { puzzle: $("crossing-preset").value, params: {} };
  for (const input of document.querySelectorAll("#crossing-params input")) puzzle.params[input.dataset.param] = Number(input.value);
  const reply = await api("POST", "/v1/crossing/export", puzzle);
  if (!reply.ok) { say("crossing-message", "Invalid: " + reply.data.error, "bad"); return; }
  $("crossing-file").value = JSON.stringify(reply.data, null, 2);
  document.querySelector('input[name="crossing-source"][value="file"]').checked = true;
  clearCrossing();
  say("crossing-message", `Loaded the document of ${reply.data.name || puzzle.puzzle}: edit it, then Solve or Explain.`, "info");
});

$("crossing-solve").addEventListener("click", async () => {
  clearCrossing();
  const puzzle = crossingPuzzle();
  if (!puzzle) { say("crossing-message", "Paste a puzzle file first.", "bad"); return; }
  const body = { ...puzzle, engine: engineOf($("crossing-engine")), count_shortest: $("crossing-count").checked };
  if ($("crossing-certify").checked) body.certify = true;
  say("crossing-message", "Solving...", "info");
  const reply = await api("POST", "/v1/crossing/solve?explain=true", body);
  const r = reply.data;
  if (!reply.ok) { say("crossing-message", "Invalid: " + r.error, "bad"); return; }
  if (r.status === "solved") {
    const counted = r.shortest_plans ? `; ${r.shortest_plans.count} shortest plans` : "";
    say("crossing-message", `${r.name}: ${r.crossings} crossings, proven shortest${counted}${certified(r)} (${ms(r.seconds)}, ${r.engine})`, "ok");
    player.result = r;
    player.step = 0;
    $("crossing-player").hidden = false;
    drawPlan();
    drawScene(0, false);
  } else if (r.status === "unsolvable") {
    say("crossing-message", `${r.name}: unsolvable (proven): ${r.proof}${certified(r)}`, "bad");
  } else {
    say("crossing-message", `${r.name}: ${r.status}: ${r.proof || r.message || ""}`, "info");
  }
});

// Explain: the rules that make the puzzle unsolvable, or forbid a shorter plan, each with what
// happens without it (POST /v1/crossing/explain).
$("crossing-explain").addEventListener("click", async () => {
  clearCrossing();
  const puzzle = crossingPuzzle();
  if (!puzzle) { say("crossing-message", "Paste a puzzle file first.", "bad"); return; }
  say("crossing-message", "Explaining...", "info");
  const reply = await api("POST", "/v1/crossing/explain", puzzle);
  const r = reply.data;
  if (!reply.ok || r.status === "invalid") { say("crossing-message", "Invalid: " + (r.error || "HTTP " + reply.status), "bad"); return; }
  say("crossing-message", r.text, r.explanation === "unknown" ? "info" : "ok");
  const list = $("crossing-explanation");
  for (const need of r.needed || []) {
    const item = document.createElement("li");
    const without = need.without_it === null ? "still no plan" : `a plan of ${need.without_it} crossing${need.without_it === 1 ? "" : "s"}`;
    item.textContent = `${need.constraint}: without it, ${without}`;
    list.appendChild(item);
  }
});

function moveText(move, result) {
  if (result.river) return `${move.actors.join(", ")} ${move.direction === "right" ? "→" : "←"} ${move.direction === "right" ? result.sides[1] : result.sides[0]}`;
  return `down: ${move.down.join(", ") || "-"}; up: ${move.up.join(", ") || "-"}`;
}
function drawPlan() {
  const list = $("crossing-plan");
  list.replaceChildren();
  player.result.moves.forEach((move, i) => {
    const item = document.createElement("li");
    item.textContent = moveText(move, player.result);
    item.addEventListener("click", () => { stopPlay(); drawScene(i + 1, false); });
    list.appendChild(item);
  });
}
function chips(container, content, moving) {
  const left = { ...moving };
  for (const [name, count] of Object.entries(content || {})) {
    const shown = count > 6 ? 1 : count;
    for (let k = 0; k < shown; k++) {
      const chip = document.createElement("span");
      chip.className = "actor";
      chip.dataset.actor = name;
      chip.textContent = count > 6 ? `${name} ×${count}` : name;
      if (left[name]) { chip.classList.add("moving"); left[name]--; }
      container.appendChild(chip);
    }
  }
}
function tally(names) {
  const out = {};
  for (const n of names) out[n] = (out[n] || 0) + 1;
  return out;
}
function minus(content, names) {
  const out = { ...content };
  for (const n of names) { out[n]--; if (!out[n]) delete out[n]; }
  return out;
}
function place(scene, cls, title, content, moving) {
  const el = document.createElement("div");
  el.className = cls;
  if (title !== null) { const h = document.createElement("h3"); h.textContent = title; el.appendChild(h); }
  chips(el, content, moving || {});
  scene.appendChild(el);
  return el;
}
// Draw the state after `step` moves; with `animate`, first show the move under way.
function drawScene(step, animate) {
  const r = player.result;
  const scene = $("scene");
  const n = r.moves.length;
  player.step = step;
  scene.dataset.step = step;
  scene.dataset.moving = animate && step > 0 ? "1" : "0";
  $("crossing-step").textContent = step === 0 ? `Start (0 of ${n})` : `Step ${step} of ${n}: ${moveText(r.moves[step - 1], r)}`;
  [...$("crossing-plan").children].forEach((li, i) => li.classList.toggle("current", i === step - 1));
  $("crossing-prev").disabled = step === 0;
  $("crossing-next").disabled = step === n;
  const bank = r.banks[step];
  const move = step > 0 ? r.moves[step - 1] : null;
  scene.replaceChildren();
  if (r.river) {
    const arrived = move ? tally(move.actors) : {};
    const farSide = move ? move.direction === "right" : false;
    place(scene, "river", null, {});
    if (animate && move) {
      const before = r.banks[step - 1];
      const from = farSide ? "near" : "far";
      const near = from === "near" ? minus(before.near, move.actors) : before.near;
      const far = from === "far" ? minus(before.far, move.actors) : before.far;
      place(scene, "bank near", r.sides[0], near);
      place(scene, "bank far", r.sides[1], far);
      const boat = place(scene, "boat at-" + from, null, arrived, arrived);
      boat.id = "boat";
      void boat.offsetWidth;  // start the transition from the departure side
      boat.className = "boat at-" + (farSide ? "far" : "near");
      player.busy = true;
      setTimeout(() => { player.busy = false; if (player.step === step) drawScene(step, false); }, 700);
      return;
    }
    place(scene, "bank near", r.sides[0], bank.near, farSide ? {} : arrived);
    place(scene, "bank far", r.sides[1], bank.far, farSide ? arrived : {});
    place(scene, "boat at-" + (farSide ? "far" : "near"), null, {}).id = "boat";
  } else {
    const down = move ? tally(move.down) : {};
    const up = move ? tally(move.up) : {};
    place(scene, "shaft", null, {});
    if (animate && move) {
      const before = r.banks[step - 1];
      place(scene, "tower near", r.sides[0], minus(before.near, move.down));
      place(scene, "tower far", r.sides[1], minus(before.far, move.up));
      const a = place(scene, "basket a up", null, down, down);
      const b = place(scene, "basket b down", null, up, up);
      void a.offsetWidth;
      a.className = "basket a down"; b.className = "basket b up";
      player.busy = true;
      setTimeout(() => { player.busy = false; if (player.step === step) drawScene(step, false); }, 700);
      return;
    }
    place(scene, "tower near", r.sides[0], bank.near, up);
    place(scene, "tower far", r.sides[1], bank.far, down);
    place(scene, "basket a " + (step % 2 ? "down" : "up"), null, {});
    place(scene, "basket b " + (step % 2 ? "up" : "down"), null, {});
  }
}
function stopPlay() {
  if (player.timer) clearInterval(player.timer);
  player.timer = null;
  $("crossing-play").textContent = "Play";
}
$("crossing-next").addEventListener("click", () => {
  stopPlay();
  if (player.step < player.result.moves.length) drawScene(player.step + 1, true);
});
$("crossing-prev").addEventListener("click", () => { stopPlay(); if (player.step > 0) drawScene(player.step - 1, false); });
$("crossing-play").addEventListener("click", () => {
  if (player.timer) { stopPlay(); return; }
  if (player.step >= player.result.moves.length) drawScene(0, false);
  $("crossing-play").textContent = "Pause";
  player.timer = setInterval(() => {
    if (player.step >= player.result.moves.length) { stopPlay(); return; }
    drawScene(player.step + 1, true);
    if (player.step >= player.result.moves.length) stopPlay();
  }, 1200);
});

// -- Jobs -----------------------------------------------------------------------------------------------------
const jobs = new Map();  // id -> job (with results)
let jobTimer = null;

async function startJob(body, what) {
  const reply = await api("POST", "/v1/jobs", body);
  if (!reply.ok) { say("jobs-message", reply.data.error, "bad"); return; }
  say("jobs-message", `Started job ${reply.data.id}: ${what}`, "info");
  jobs.set(reply.data.id, { id: reply.data.id, status: "queued", what, progress: {} });
  drawJobs();
  pollJobs();
}
// What a job costs, said before it starts.  Counting every binairo grid of a size takes a known
// time (measured: BENCHMARKS.md; the job counts in one process, so CPU time is its running time);
// a size whose cost exceeds the server's job cap (max_job_seconds of GET /v1/kinds's limits) is
// refused here, not started to be stopped an hour later.
const GRID_COUNT_SECONDS = { 6: 0.05, 8: 1, 10: 20, 12: 23200 };
const GRID_COUNT_COST = {
  6: "under a second",
  8: "about a second",
  10: "about 2.4 CPU seconds (plus about 15 s the first time, building numba's cache)",
  12: "about 6.5 CPU hours (mindgames binairo count --size 12 --estimate 40 says how long first)",
};
let serverLimits = null;  // GET /v1/kinds's limits, once listed
function duration(seconds) {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} minutes`;
  return `${(seconds / 3600).toFixed(1)} hours`;
}
function jobCost() {
  const size = Number($("job-binairo-size").value);
  const cap = serverLimits ? serverLimits.max_job_seconds : null;
  const refused = cap !== null && GRID_COUNT_SECONDS[size] > cap;
  const capText = cap !== null ? ` This server stops a job after ${duration(cap)} (--max-job-seconds).` : "";
  $("job-binairo-grids").disabled = refused;
  $("job-binairo-cost").textContent = refused
    ? `Counting every ${size}x${size} grid takes ${GRID_COUNT_COST[size]}: more than this server allows a job (${duration(cap)}, --max-job-seconds). Run it on the command line: mindgames binairo count --size ${size}`
    : `Cost: ${GRID_COUNT_COST[size]}.` + capText;
  $("job-binairo-cost").className = "hint" + (refused ? " refused" : "");
  const limit = Number($("job-limit").value) || 0;
  $("job-sudoku-cost").textContent =
    `Cost: until ${limit ? limit.toLocaleString() + " solutions are found" : "every solution is found"}` +
    (cap !== null ? ` or ${duration(cap)} pass (the server's cap), whichever comes first.` : ".");
}
$("job-binairo-size").addEventListener("change", jobCost);
$("job-limit").addEventListener("input", jobCost);
$("job-sudoku-count").addEventListener("click", () => {
  const limit = Number($("job-limit").value) || undefined;
  startJob({ kind: "sudoku", action: "count", puzzles: [sudokuPuzzle()], limit, engine: engineOf($("sudoku-engine")) },
           `count the ${sudoku.size}x${sudoku.size} Sudoku's solutions${limit ? " up to " + limit : ""}`);
});
$("job-binairo-grids").addEventListener("click", () => {
  const size = $("job-binairo-size").value;
  startJob({ kind: "binairo", action: "count_grids", size }, `count every ${size}x${size} binairo grid`);
});

async function refreshJobs() {
  const reply = await api("GET", "/v1/jobs?limit=20");
  if (!reply.ok) return;
  for (const job of reply.data.jobs) jobs.set(job.id, { ...(jobs.get(job.id) || {}), ...job, results: undefined });
  await Promise.all([...jobs.values()].filter((j) => !j.fetched).map(fetchJob));
  drawJobs();
  if ([...jobs.values()].some((j) => j.status === "queued" || j.status === "running")) pollJobs();
}
async function fetchJob(job) {
  const reply = await api("GET", "/v1/jobs/" + job.id);
  if (reply.ok) {
    const done = !["queued", "running"].includes(reply.data.status);
    jobs.set(job.id, { ...job, ...reply.data, fetched: done });
  }
}
function pollJobs() {
  if (jobTimer) return;
  jobTimer = setInterval(async () => {
    const active = [...jobs.values()].filter((j) => j.status === "queued" || j.status === "running");
    await Promise.all(active.map(fetchJob));
    drawJobs();
    if (!active.length) { clearInterval(jobTimer); jobTimer = null; }
  }, 500);
}
function jobWhat(job) {
  if (job.what) return job.what;
  if (job.action === "count_grids") return `count every ${job.kind} grid`;
  return `${job.kind} ${job.action}`;
}
function jobFraction(job) {
  const p = job.progress || {};
  if (job.status === "done") return 1;
  if (p.solutions != null && p.limit) return Math.min(1, p.solutions / p.limit);
  if (p.total) return p.done / p.total;
  return 0;
}
function jobProgressText(job) {
  const p = job.progress || {};
  if (p.unit === "cubes") return `${p.done} of ${p.total} cubes`;
  if (p.solutions != null) return `${p.solutions} solution${p.solutions === 1 ? "" : "s"} so far`;
  if (p.total) return `${p.done} of ${p.total} puzzles`;
  return "";
}
function jobResult(job) {
  if (job.error) return job.error;
  if (job.result && job.result.count != null) return `${BigInt(job.result.count).toLocaleString()} grids`;
  const results = job.results || [];
  const p = job.progress || {};
  if (!results.length && p.solutions != null && job.status !== "running") {
    return `${job.message || job.status} after ${p.solutions} solution${p.solutions === 1 ? "" : "s"}`;
  }
  if (!results.length) return job.message || "";
  if (results.length === 1 && results[0].count != null) {
    const r = results[0];
    return `${r.count}${r.complete ? "" : " or more"} solution${r.count === 1 ? "" : "s"}`;
  }
  return results.map((r) => r.status).join(", ");
}
function drawJobs() {
  const body = document.querySelector("#job-table tbody");
  body.replaceChildren();
  const list = [...jobs.values()].sort((a, b) => (b.created || 1e12) - (a.created || 1e12));
  for (const job of list) {
    const row = document.createElement("tr");
    row.dataset.job = job.id;
    const cells = [job.id, jobWhat(job), job.status];
    for (const text of cells) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); }
    row.children[2].className = "status-" + job.status;
    const bar = document.createElement("td");
    bar.innerHTML = '<div class="bar"><div></div></div><small></small>';
    bar.querySelector(".bar > div").style.width = (100 * jobFraction(job)).toFixed(1) + "%";
    bar.querySelector("small").textContent = jobProgressText(job);
    row.appendChild(bar);
    const result = document.createElement("td");
    result.className = "job-result";
    result.textContent = jobResult(job);
    row.appendChild(result);
    const action = document.createElement("td");
    if (job.status === "queued" || job.status === "running") {
      const cancel = document.createElement("button");
      cancel.textContent = "Cancel";
      cancel.addEventListener("click", async () => {
        const reply = await api("POST", "/v1/jobs/" + job.id + "/cancel", {});
        if (reply.ok) jobs.set(job.id, { ...job, ...reply.data, fetched: true });
        drawJobs();
      });
      action.appendChild(cancel);
    } else if (job.status !== "deleted") {
      const remove = document.createElement("button");
      remove.textContent = "Delete";
      remove.addEventListener("click", async () => {
        const reply = await api("DELETE", "/v1/jobs/" + job.id);
        if (reply.ok || reply.status === 404) jobs.delete(job.id);
        drawJobs();
      });
      action.appendChild(remove);
    }
    row.appendChild(action);
    body.appendChild(row);
  }
}

// -- start ------------------------------------------------------------------------------------------------------
sudokuReset(9);
binairoReset(6, 6);
jobCost();
loadKinds();
loadPresets();

// -- Explain and Hint (POST /v1/{kind}/explain, /hint) --------------------------------------------------
// Explain marks the clashing givens, the open cells and shows the givens that would make the puzzle
// unique with their values; Hint places one cell (drawn as hinted, undoable) and outlines the cells
// of its reason.  The legend under the boards says what each look means.
function showExplanation(board, kind, reply, cols) {
  const messageId = kind + "-message";
  const result = reply.data;
  board.clearResult();
  const index = (r, c) => (r - 1) * cols + (c - 1);
  const mark = (cells, cls) => { for (const [r, c] of cells || []) board.marks[index(r, c)] = cls; };
  if (!reply.ok || result.status === "invalid" || result.status === "unknown") {
    say(messageId, (result.status === "unknown" ? "Unknown: " : "Invalid: ") + (result.error || result.message || "HTTP " + reply.status), "bad");
  } else if (result.explanation === "clash") {
    mark(result.clash, "clash");
    say(messageId, result.text, "bad");
  } else if (result.explanation === "open") {
    mark(result.open_cells, "open");
    for (const g of result.add_givens || []) board.suggested[index(g.row, g.col)] = g.value;
    say(messageId, result.text, "info");
  } else if (result.explanation === "unique") {
    say(messageId, result.text, "ok");
  } else if (result.value !== undefined) {
    mark(result.because, "because");
    board.hinted.push([index(result.row, result.col), result.value]);
    $(kind + "-undo").disabled = false;
    say(messageId, `Hint (${result.technique}): ${result.text}`, "ok");
  }
  board.render();
}

function gridBody(kind) {
  if (kind === "sudoku") return { puzzle: sudokuPuzzle(), engine: engineOf($("sudoku-engine")) };
  return { puzzle: binairoGrid(), rules: $("binairo-rules").value, engine: engineOf($("binairo-engine")) };
}

for (const [kind, board] of [["sudoku", sudokuBoard], ["binairo", binairoBoard]]) {
  const cols = () => (kind === "sudoku" ? sudoku.size : binairo.cols);
  for (const action of ["explain", "hint"]) {
    $(`${kind}-${action}`).addEventListener("click", async () => {
      say(`${kind}-message`, "Working...", "info");
      const reply = await api("POST", `/v1/${kind}/${action}`, gridBody(kind));
      showExplanation(board, kind, reply, cols());
    });
  }
  // Undo hint: the last hinted cell is blank again (and what was shown for the puzzle with it goes).
  $(`${kind}-undo`).addEventListener("click", () => {
    board.hinted.pop();
    board.clearResult();
    $(kind + "-comparison").replaceChildren();
    $(`${kind}-undo`).disabled = board.hinted.length === 0;
    say(`${kind}-message`, "");
    board.render();
  });
}
