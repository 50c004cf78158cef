// The analysis page: draws the board of the chosen game from /api/v1/,
// asks /api/v1/GAME?position=... for the position's answer and shows each
// legal move's value on its point. No outside requests, no build step.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = {
  dbs: [],        // the databases served (/api/v1/)
  db: null,       // the chosen one
  pos: "",        // the position text
  answer: null,   // the API's answer for pos, or null
  history: [],    // earlier positions, for Undo
  sel: null,      // the point of the picked-up stone
  removing: null, // the moves that differ only in the stone they take
  seq: 0,         // the number of the latest request
};

// badge returns a value's short form from the mover's view: W7, L4, D.
function badge(v) {
  if (v.outcome === "won") return "W" + v.depth;
  if (v.outcome === "lost") return "L" + v.depth;
  return "D";
}

// cls returns the CSS class of a value.
function cls(v) {
  return v.outcome === "won" ? "win" : v.outcome === "lost" ? "loss" : "draw";
}

// stonesOf reads the stones from the position text: point name -> "W"/"B".
function stonesOf(pos) {
  const out = {};
  const board = pos.trim().split(/\s+/)[0] || "";
  state.db.board.points.forEach((p, i) => {
    const c = board[i];
    if (c === "W" || c === "B") out[p.name] = c;
  });
  return out;
}

// size returns the largest column and row of the board's points.
function size() {
  let c = 0, r = 0;
  for (const p of state.db.board.points) { c = Math.max(c, p.col); r = Math.max(r, p.row); }
  return [c, r];
}

// xy returns the drawing coordinates of a point.
function xy(p) { return [p.col, size()[1] - p.row]; }

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// view returns, for the current selection, the move shown at each point:
// point name -> {move, pick}. The moves come best first, so the first move
// that lands on a point is its best.
function view() {
  const out = {};
  const a = state.answer;
  if (!a) return out;
  const put = (name, m) => {
    if (!(name in out)) out[name] = { move: m, pick: false };
    if (m.pick) out[name].pick = true;
  };
  if (state.removing) {
    state.removing.forEach((m) => put(m.remove, m));
  } else if (state.sel) {
    a.moves.filter((m) => m.from === state.sel).forEach((m) => put(m.to, m));
  } else {
    a.moves.forEach((m) => put(m.from || m.to, m));
  }
  return out;
}

function draw() {
  const svg = $("board");
  svg.replaceChildren();
  const [maxC, maxR] = size();
  svg.setAttribute("viewBox", "-0.8 -0.8 " + (maxC + 1.6) + " " + (maxR + 1.6));
  const pts = {};
  state.db.board.points.forEach((p) => { pts[p.name] = p; });
  for (const [a, b] of state.db.board.lines) {
    const [x1, y1] = xy(pts[a]);
    const [x2, y2] = xy(pts[b]);
    el("line", { x1, y1, x2, y2 }, svg);
  }
  for (let c = 0; c <= maxC; c++) {
    el("text", { x: c, y: maxR + 0.55, class: "coord" }, svg).textContent = "abcdefghijklm"[c];
  }
  for (let r = 0; r <= maxR; r++) {
    el("text", { x: -0.55, y: maxR - r, class: "coord" }, svg).textContent = String(r + 1);
  }
  const stones = stonesOf(state.pos);
  const shown = view();
  for (const p of state.db.board.points) {
    const [x, y] = xy(p);
    el("circle", { cx: x, cy: y, r: 0.08, class: "pt" }, svg);
    const s = stones[p.name];
    if (s) el("circle", { cx: x, cy: y, r: 0.3, class: "stone " + (s === "W" ? "w" : "b") }, svg);
    if (state.sel === p.name) el("circle", { cx: x, cy: y, r: 0.36, class: "sel" }, svg);
    const v = shown[p.name];
    if (v) {
      if (v.pick) el("circle", { cx: x, cy: y, r: 0.42, class: "pickring" }, svg);
      if (!s) el("circle", { cx: x, cy: y, r: 0.25, class: "badgebg" }, svg);
      const t = el("text", { x, y, class: "badge " + cls(v.move.value), "data-point": p.name }, svg);
      t.textContent = badge(v.move.value);
    }
    const hit = el("circle", { cx: x, cy: y, r: 0.45, class: "hit", id: "pt-" + p.name, "data-point": p.name }, svg);
    hit.addEventListener("click", () => tap(p.name));
  }
}

function table() {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  const a = state.answer;
  if (!a) return;
  for (const m of a.moves) {
    const tr = document.createElement("tr");
    if (m.pick) tr.className = "pick";
    tr.dataset.move = m.move;
    const cells = [m.move, m.value.text, m.replies.join(" / "), m.score.toFixed(3)];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      if (i === 1) td.className = cls(m.value);
      tr.appendChild(td);
    });
    tr.addEventListener("click", () => play(m));
    body.appendChild(tr);
  }
}

function status(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "error" : "";
}

function render() {
  draw();
  table();
  $("undo").disabled = state.history.length === 0;
  $("position").value = state.pos;
  const a = state.answer;
  if (a) {
    const side = a.turn;
    $("value").textContent = a.over ? side + " has no move: " + a.value.text : side + " to move: " + a.value.text;
    $("value").className = cls(a.value);
    $("info").textContent = "phase " + a.phase + " · layer " + a.layer + " · in hand " + a.hand[0] + "/" + a.hand[1] +
      " · " + a.moves.length + " moves, " + a.picks + " picked · from the " + a.source;
  } else {
    $("value").textContent = "";
    $("info").textContent = "";
  }
}

// setURL puts the game and position into the address, for sharing.
function setURL() {
  const u = new URL(window.location.href);
  u.search = "";
  u.searchParams.set("game", state.db.name);
  u.searchParams.set("position", state.pos);
  window.history.replaceState(null, "", u);
}

async function load(pos) {
  state.pos = pos;
  state.sel = null;
  state.removing = null;
  state.answer = null;
  const seq = ++state.seq;
  setURL();
  render();
  status("asking the database…");
  let r, j;
  try {
    r = await fetch("/api/v1/" + encodeURIComponent(state.db.name) + "?position=" + encodeURIComponent(pos));
    j = await r.json();
  } catch (e) {
    if (seq === state.seq) status("no answer from the server: " + e, true);
    return;
  }
  if (seq !== state.seq) return; // a newer position was asked for
  if (!r.ok) {
    status(j.error || ("error " + r.status), true);
    document.body.dataset.ready = "error";
    return;
  }
  state.answer = j;
  state.pos = j.position;
  setURL();
  render();
  status(j.over ? "the game is over" : "");
  document.body.dataset.ready = "yes";
}

function play(m) {
  state.history.push(state.pos);
  load(m.next);
}

function tap(name) {
  const a = state.answer;
  if (!a || a.over) return;
  if (state.removing) {
    const m = state.removing.find((x) => x.remove === name);
    state.removing = null;
    if (m) { play(m); return; }
    render();
    return;
  }
  if (state.sel === name) { state.sel = null; render(); return; }
  if (a.moves.some((m) => m.from === name)) { state.sel = name; render(); status(""); return; }
  const cands = a.moves.filter((m) => m.to === name && (m.from || null) === state.sel);
  if (cands.length === 0) {
    status(state.sel ? "the stone on " + state.sel + " cannot go to " + name : "no move on " + name, true);
    return;
  }
  if (cands.length === 1 && !cands[0].remove) { play(cands[0]); return; }
  state.removing = cands;
  render();
  status("a mill: click the stone to take (its value is on it)");
}

function undo() {
  if (state.history.length === 0) return;
  load(state.history.pop());
}

function chooseGame(name, pos) {
  state.db = state.dbs.find((d) => d.name === name) || state.dbs[0];
  $("game").value = state.db.name;
  state.history = [];
  load(pos || state.db.start);
}

async function main() {
  let j;
  try {
    j = await (await fetch("/api/v1/")).json();
  } catch (e) {
    status("no answer from the server: " + e, true);
    return;
  }
  state.dbs = j.databases;
  for (const d of state.dbs) {
    const o = document.createElement("option");
    o.value = d.name;
    o.textContent = d.title;
    $("game").appendChild(o);
  }
  $("game").addEventListener("change", (e) => chooseGame(e.target.value));
  $("undo").addEventListener("click", undo);
  $("start").addEventListener("click", () => { state.history.push(state.pos); load(state.db.start); });
  $("posform").addEventListener("submit", (e) => {
    e.preventDefault();
    state.history.push(state.pos);
    load($("position").value);
  });
  const q = new URLSearchParams(window.location.search);
  chooseGame(q.get("game"), q.get("position"));
}

main();
