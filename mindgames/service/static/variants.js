// mindgames web page: a Sudoku's variant rules drawn over its grid (SVG), and puzzles pasted as
// links.  A link (f-puzzles, SudokuPad, puzz.link, a Solo ID) or a JSON object is read by the
// server, not here: the page sends its text as the puzzle, and a puzzle with variant rules comes
// back with its "drawing": the puzzle as read, in mindgames' JSON (grid, box or regions, and the
// rules of models/sudoku/variant_json.py, cells named "r1c1"), which is drawn.
// Loaded before app.js, whose Sudoku state (sudoku, sudokuBoard) and helpers ($, say, sudokuReset)
// it uses once the page runs; app.js calls sudokuVariants' load, puzzle, clear and show.
"use strict";

const sudokuVariants = {
  text: null,     // the pasted text the server reads (null: the board's grid is the puzzle)
  drawing: null,  // the server's drawing of that puzzle (null: none yet, or classic rules)

  // A pasted text that is no plain line of symbols: kept and read by the server.  True when taken.
  load(text) {
    const pasted = text.trim();
    if (!pasted || /^[.0-9A-Za-z_]+(\s+\S+)?$/.test(pasted)) return false;  // a line of symbols: app.js's
    sudokuReset(sudoku.size);
    this.text = pasted;
    say("sudoku-message", "Loaded as text the server reads (a link or JSON): Solve or Check it; its rules are drawn with the answer.", "info");
    return true;
  },

  // The puzzle a request sends: the pasted text, or the object it states (JSON).
  puzzle() {
    if (!/^[[{]/.test(this.text)) return this.text;
    try { return JSON.parse(this.text); } catch (err) { return this.text; }  // the server names what is wrong
  },

  // Forget the pasted text and its drawing (a new puzzle on the board).
  clear() { this.text = null; this.drawing = null; },

  // An answer's drawing: the puzzle's givens and layout onto the board, its rules drawn.
  show(drawing) {
    if (!drawing) return;
    this.drawing = drawing;
    const n = drawing.grid.length;
    sudoku.size = n;
    sudoku.box = drawing.box || null;
    sudoku.regions = drawing.regions ? drawing.regions.split("") : null;
    sudoku.diagonals = Boolean(drawing.diagonals);
    sudoku.values = drawing.grid.flat();
    ensureSizeOption($("sudoku-size"), n, `${n}x${n}`);
    $("sudoku-diagonals").checked = Boolean(drawing.diagonals);
  },

  // The rules over the grid, drawn again whenever the board is (a MutationObserver below).
  draw() {
    const grid = $("sudoku-grid");
    const wrap = grid.parentElement;
    let svg = $("sudoku-variants");
    if (!svg) {
      svg = document.createElementNS(SVG, "svg");
      svg.id = "sudoku-variants";
      svg.setAttribute("aria-hidden", "true");
      wrap.appendChild(svg);
    }
    svg.replaceChildren();
    let caption = $("sudoku-rules");
    if (!caption) {
      caption = document.createElement("p");
      caption.id = "sudoku-rules";
      caption.className = "hint";
      wrap.after(caption);
    }
    caption.textContent = "";
    const drawing = this.drawing;
    const n = sudoku.size;
    if (!drawing || drawing.grid.length !== n || grid.children.length !== n * n) return;
    svg.setAttribute("width", wrap.scrollWidth);
    svg.setAttribute("height", wrap.scrollHeight);
    const first = grid.children[0];
    const size = first.offsetWidth;
    const at = (r, c) => {  // the centre of a cell, in the wrap's pixels
      const cell = grid.children[r * n + c];
      return [cell.offsetLeft + cell.offsetWidth / 2, cell.offsetTop + cell.offsetHeight / 2];
    };
    drawRules(svg, drawing, at, size, n);
    caption.textContent = globalRules(drawing);
  },
};

const SVG = "http://www.w3.org/2000/svg";

function svgNode(parent, tag, attributes, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

// "r3c4" (as mindgames' JSON names a cell) as [2, 3]
function cellOf(name) {
  const [, r, c] = /^r(\d+)c(\d+)$/i.exec(name);
  return [Number(r) - 1, Number(c) - 1];
}

function pathThrough(points) {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

function globalRules(rules) {
  const names = {
    anti_knight: "anti-knight", anti_king: "anti-king", non_consecutive: "non-consecutive",
    disjoint_groups: "disjoint groups", negative_kropki: "every kropki dot is given",
    negative_xv: "every X and V is given",
  };
  const on = Object.keys(names).filter((flag) => rules[flag]).map((flag) => names[flag]);
  return on.length ? "Also: " + on.join(", ") + "." : "";
}

// Each rule family in its own class (v-cage, v-thermo, ...), as f-puzzles draws it.
function drawRules(svg, rules, at, size, n) {
  const group = (cls) => svgNode(svg, "g", { class: cls });
  const cells = (names) => names.map(cellOf);
  const centres = (names) => cells(names).map(([r, c]) => at(r, c));
  const edgeMiddle = (names) => { const [p, q] = centres(names); return [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]; };

  for (const region of rules.extra_regions || []) {
    const g = group("v-extra");
    for (const [r, c] of cells(region)) {
      const [x, y] = at(r, c);
      svgNode(g, "rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, fill: "#9bd0ff", opacity: 0.3 });
    }
  }
  for (const clue of rules.parity || []) {
    const [x, y] = at(...cellOf(clue.cell));
    const g = group("v-parity v-" + clue.parity);
    const s = size * 0.34;
    if (clue.parity === "odd") svgNode(g, "circle", { cx: x, cy: y, r: s, fill: "#bbb", opacity: 0.5 });
    else svgNode(g, "rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s, fill: "#bbb", opacity: 0.5 });
  }
  for (const thermo of rules.thermos || []) {
    const g = group("v-thermo" + (thermo.slow ? " v-slow" : ""));
    const points = centres(thermo.cells);
    const colour = thermo.slow ? "#6495ed" : "#999";
    svgNode(g, "circle", { cx: points[0][0], cy: points[0][1], r: size * 0.38, fill: colour, opacity: 0.45 });
    svgNode(g, "path", { d: pathThrough(points), stroke: colour, "stroke-width": size * 0.3, "stroke-linecap": "round",
      "stroke-linejoin": "round", fill: "none", opacity: 0.45 });
  }
  const lineColour = { whisper: "#60c060", renban: "#c060c0", palindrome: "#aaa", between: "#8aa" };
  for (const line of rules.lines || []) {
    const g = group("v-line v-" + line.kind);
    const points = centres(line.cells);
    svgNode(g, "path", { d: pathThrough(points), stroke: lineColour[line.kind], "stroke-width": size * 0.14,
      "stroke-linecap": "round", "stroke-linejoin": "round", fill: "none", opacity: 0.7 });
    if (line.kind === "between") {
      for (const [x, y] of [points[0], points[points.length - 1]]) {
        svgNode(g, "circle", { cx: x, cy: y, r: size * 0.4, fill: "none", stroke: lineColour.between, "stroke-width": 2 });
      }
    }
  }
  for (const arrow of rules.arrows || []) {
    const g = group("v-arrow");
    const circle = centres(arrow.circle);
    const path = [circle[0], ...centres(arrow.path)];
    svgNode(g, "path", { d: pathThrough(path), stroke: "#888", "stroke-width": 2, fill: "none" });
    const [tx, ty] = path[path.length - 1], [px, py] = path[path.length - 2];
    const angle = Math.atan2(ty - py, tx - px), head = size * 0.25;
    const wing = (turn) => [tx - head * Math.cos(angle + turn), ty - head * Math.sin(angle + turn)];
    svgNode(g, "path", { d: pathThrough([wing(0.5), [tx, ty], wing(-0.5)]), stroke: "#888", "stroke-width": 2, fill: "none" });
    svgNode(g, "path", { d: pathThrough(circle), stroke: "#888", "stroke-width": size * 0.8, "stroke-linecap": "round", fill: "none", opacity: 0.35 });
  }
  for (const cage of rules.cages || []) {
    const g = group("v-cage");
    const inCage = new Set(cells(cage.cells).map(([r, c]) => r * n + c));
    const inset = size * 0.08, half = size / 2;
    for (const [r, c] of cells(cage.cells)) {
      const [x, y] = at(r, c);
      const left = x - half + inset, right = x + half - inset, top = y - half + inset, bottom = y + half - inset;
      const sides = [
        [[r - 1, c], [[left, top], [right, top]]], [[r + 1, c], [[left, bottom], [right, bottom]]],
        [[r, c - 1], [[left, top], [left, bottom]]], [[r, c + 1], [[right, top], [right, bottom]]],
      ];
      for (const [[rr, cc], segment] of sides) {
        if (rr >= 0 && rr < n && cc >= 0 && cc < n && inCage.has(rr * n + cc)) continue;
        svgNode(g, "path", { d: pathThrough(segment), stroke: "#333", "stroke-width": 1.2, "stroke-dasharray": "3 2", fill: "none" });
      }
    }
    if (cage.sum !== undefined) {
      const [r, c] = cells(cage.cells).reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
      const [x, y] = at(r, c);
      svgNode(g, "text", { x: x - half + inset + 1, y: y - half + inset + size * 0.27, "font-size": size * 0.3, class: "v-total" }, String(cage.sum));
    }
  }
  for (const dot of rules.dots || []) {
    const [x, y] = edgeMiddle(dot.cells);
    svgNode(group("v-dot v-" + dot.colour), "circle", { cx: x, cy: y, r: size * 0.11, stroke: "#000", "stroke-width": 1.2,
      fill: dot.colour === "black" ? "#000" : "#fff" });
  }
  for (const xv of rules.xv || []) {
    const [x, y] = edgeMiddle(xv.cells);
    const g = group("v-xv");
    svgNode(g, "rect", { x: x - size * 0.13, y: y - size * 0.15, width: size * 0.26, height: size * 0.3, fill: "#fff" });
    svgNode(g, "text", { x, y: y + size * 0.1, "font-size": size * 0.3, "text-anchor": "middle", "font-weight": "bold" }, xv.letter);
  }
  for (const clue of rules.little_killers || []) {
    const diagonal = cells(clue.cells);
    const [r, c] = diagonal[0];
    const next = diagonal[1] || [r + (r === 0 ? 1 : -1), c + (c === 0 ? 1 : -1)];
    const [dr, dc] = [next[0] - r, next[1] - c];
    const [x, y] = at(r, c);
    const g = group("v-little-killer");
    svgNode(g, "text", { x: x - dc * size * 0.3, y: y - dr * size * 0.3 + size * 0.08, "font-size": size * 0.24,
      "text-anchor": "middle", class: "v-total" }, `${clue.sum}${dr > 0 ? (dc > 0 ? "↘" : "↙") : (dc > 0 ? "↗" : "↖")}`);
  }
  for (const clue of rules.sandwiches || []) {
    const row = clue.row !== undefined;
    const [r, c] = row ? [clue.row - 1, 0] : [0, clue.column - 1];
    const [x, y] = at(r, c);
    const g = group("v-sandwich");
    const [tx, ty] = row ? [x - size * 0.4, y + size * 0.08] : [x, y - size * 0.3];
    svgNode(g, "text", { x: tx, y: ty, "font-size": size * 0.24, "text-anchor": row ? "start" : "middle", class: "v-total" }, String(clue.sum));
  }
  for (const marks of rules.candidates || []) {
    const [x, y] = at(...cellOf(marks.cell));
    svgNode(group("v-candidates"), "text", { x, y: y + size * 0.42, "font-size": size * 0.2, "text-anchor": "middle" }, marks.digits.join(""));
  }
}

new MutationObserver(() => sudokuVariants.draw()).observe(document.getElementById("sudoku-grid"), { childList: true });
window.addEventListener("resize", () => sudokuVariants.draw());
