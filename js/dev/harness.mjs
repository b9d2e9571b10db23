// A standalone page for the built widget: a fake anywidget model, sample views, and a tiny fake
// "engine" that answers intents so that the table can be played a little in a browser.
// The fake engine is harness scaffolding only (naive rules); the real rules live in Python.
//
// URL parameters:
//   variant=spiderette|spider   sample to start with (default spiderette)
//   dark=1                      JupyterLab-like dark theme variables
//   four=1                      four_colour = true
//   views=2                     render two views of the same model
//   width=900                   width of each mount in px (default: 960)
//   respond=0                   do not answer intents (only record them in window.sent)
//
// window.sent: every message sent by the widget.  window.model: the fake model.
// window.setView(view): publish a view as is.  window.sample(name): a fresh sample view.

import widget from "../../src/spiderette/static/widget.js";

const params = new URLSearchParams(location.search);
window.sent = [];

class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.listeners = new Map();
  }
  get(key) { return this.state[key]; }
  set(key, value) {
    const old = this.state[key];
    this.state[key] = value;
    if (old !== value) this.emit(`change:${key}`, value);
  }
  on(event, cb) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(cb);
  }
  off(event, cb) {
    if (!event) { this.listeners.clear(); return; }
    const s = this.listeners.get(event);
    if (!s) return;
    if (cb) s.delete(cb); else s.clear();
  }
  emit(event, value) { for (const cb of [...(this.listeners.get(event) || [])]) cb(value); }
  listenerCount() { let n = 0; for (const s of this.listeners.values()) n += s.size; return n; }
  send(msg) {
    window.sent.push(JSON.parse(JSON.stringify(msg)));
    if (this.onSend) this.onSend(msg);
  }
  save_changes() {}
}

// ---- sample views ------------------------------------------------------------------------------
const RANKS = "A23456789TJQK";
const rankOf = (c) => RANKS.indexOf(c[0]) + 1;
const isRed = (c) => c[1] === "H" || c[1] === "D";

function mulberry32(seed) {
  return function () {
    let t = (seed += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function spideretteSample() {
  const cols = [
    [0, ["KH", "QH", "JH", "TH", "9H", "8H", "7H", "6S", "5S"]],
    [1, ["9C", "8S"]],
    [2, ["QC", "JC", "TC", "9S"]],
    [3, ["7C", "6C", "5C", "4C", "3C"]],
    [0, []],
    [5, ["7S"]],
    [4, ["KS", "QS", "JS"]],
  ];
  const view = {
    version: 1, variant: "spiderette", suits: 4, columns: 7,
    tableau: cols.map(([down, up]) => ({ down, up, movable: 0 })),
    stock: 7, deals_left: 1, foundations: ["KD"], runs_total: 4,
    score: 497, moves: 23, runs: 1, status: "playing",
    can_deal: false, deal_error: "all columns must have cards before a deal",
    can_undo: true, can_redo: false, sendable: [], targets: {},
    message: "", hint: null, last: null,
  };
  const used = new Set([...cols.flatMap(([, up]) => up)]);
  const pool = [];
  for (const s of "SHC") for (const r of RANKS) if (!used.has(r + s)) pool.push(r + s);
  return { view, pool };
}

function spiderSample(suits = 4) {
  const rnd = mulberry32(7);
  const suitSet = suits === 1 ? "S" : suits === 2 ? "SH" : "SHDC";
  const deck = [];
  for (let d = 0; d < 104 / (13 * suitSet.length); d++) for (const s of suitSet) for (const r of RANKS) deck.push(r + s);
  for (let i = deck.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  // Take cards from the deck so that every code appears at most as often as in two decks.
  const take = (pred) => {
    const i = deck.findIndex(pred);
    return i < 0 ? null : deck.splice(i, 1)[0];
  };
  const downs = [4, 3, 5, 2, 4, 0, 3, 4, 2, 1];
  const lens = [3, 1, 6, 2, 1, 0, 11, 2, 4, 1];
  const tableau = downs.map((down, i) => {
    const up = [];
    let r = 13 - Math.floor(rnd() * 5) - (i % 3);
    let suit = suitSet[i % suitSet.length];
    for (let k = 0; k < lens[i] && r >= 1; k++, r--) {
      if (k === 3 && i === 2) suit = suitSet[(i + 1) % suitSet.length];
      const c = take((c) => c === RANKS[r - 1] + suit) || take(() => true);
      up.push(c);
    }
    return { down, up, movable: 0 };
  });
  const foundations = ["KS", suitSet.includes("H") ? "KH" : "KS"];
  for (const k of foundations) for (const r of RANKS) take((c) => c === r + k[1]);
  const view = {
    version: 1, variant: "spider", suits, columns: 10, tableau,
    stock: 30, deals_left: 3, foundations, runs_total: 8,
    score: 468, moves: 42, runs: 2, status: "playing",
    can_deal: false, deal_error: "all columns must have cards before a deal",
    can_undo: true, can_redo: true, sendable: [], targets: {},
    message: "", hint: null, last: null,
  };
  return { view, pool: deck };
}

// naive derived fields (harness only)
function derive(view) {
  const v = view;
  const spider = v.variant === "spider";
  for (const col of v.tableau) {
    let m = col.up.length ? 1 : 0;
    while (m < col.up.length) {
      const a = col.up[col.up.length - m - 1];
      const b = col.up[col.up.length - m];
      const ok = rankOf(a) === rankOf(b) + 1 &&
        (v.variant === "red_black_spiderette" ? isRed(a) !== isRed(b) : a[1] === b[1]);
      if (!ok) break;
      m++;
    }
    col.movable = m;
  }
  v.targets = {};
  v.tableau.forEach((col, i) => {
    for (let k = 1; k <= col.movable; k++) {
      const card = col.up[col.up.length - k];
      const dsts = [];
      v.tableau.forEach((d, j) => {
        if (j === i) return;
        if (!d.up.length && !d.down) {
          if (spider || card[0] === "K") dsts.push(j);
        } else if (d.up.length && rankOf(d.up[d.up.length - 1]) === rankOf(card) + 1) {
          if (v.variant !== "red_black_spiderette" || isRed(card) !== isRed(d.up[d.up.length - 1])) dsts.push(j);
        }
      });
      v.targets[`${i}:${k}`] = dsts;
    }
  });
  v.runs = v.foundations.length;
  const empty = v.tableau.some((c) => !c.up.length && !c.down);
  v.can_deal = v.deals_left > 0 && !empty;
  v.deal_error = v.can_deal ? null : v.deals_left ? "all columns must have cards before a deal" : "the stock is empty";
  return v;
}

const clone = (x) => JSON.parse(JSON.stringify(x));

function sample(name, suits) {
  const s = name === "spider" ? spiderSample(suits || 4) : spideretteSample();
  derive(s.view);
  if (name && name !== "spider" && name !== "spiderette") s.view.variant = name;
  return s;
}
window.sample = (name, suits) => sample(name, suits).view;
// codes that the page must never show: the fake engine's face-down cards and stock
window.hiddenCodes = () => [...current.pool];

// ---- the fake engine ----------------------------------------------------------------------------
let current = sample(params.get("variant") || "spiderette");
let history = [];
let future = [];

const model = new FakeModel({ view: current.view, four_colour: params.get("four") === "1" });
window.model = model;
window.setView = (v) => model.set("view", clone(v));
window.setFour = (b) => model.set("four_colour", !!b);

function publish(v, message, last) {
  v.version = model.get("view").version + 1;
  v.message = message;
  v.last = last || null;
  v.hint = null;
  v.can_undo = history.length > 0;
  v.can_redo = future.length > 0;
  model.set("view", derive(v));
}

function refuse(message) {
  const v = clone(model.get("view"));
  v.version += 1;
  v.message = message;
  model.set("view", v);
}

function reveal(v, col) {
  const c = v.tableau[col];
  if (!c.up.length && c.down > 0) {
    c.down -= 1;
    c.up.push(current.pool.shift() || "AS");
  }
}

function completeRuns(v) {
  v.tableau.forEach((c, i) => {
    if (c.up.length >= 13) {
      const top = c.up.slice(-13);
      const ok = top.every((x, j) => x[1] === top[0][1] && rankOf(x) === 13 - j);
      if (ok) {
        c.up.splice(-13);
        v.foundations.push(top[0]);
        reveal(v, i);
      }
    }
  });
}

function doMove(v, src, dst, count) {
  const moved = v.tableau[src].up.splice(-count);
  v.tableau[dst].up.push(...moved);
  reveal(v, src);
  completeRuns(v);
  v.moves += 1;
  v.score -= 1;
}

function answer(msg) {
  if (params.get("respond") === "0") return;
  const view = model.get("view");
  if (msg.version !== view.version) return refuse(`stale intent (version ${msg.version}, now ${view.version})`);
  const v = clone(view);
  const push = () => { history.push(clone(view)); future = []; };
  switch (msg.action) {
    case "move": {
      const dsts = view.targets[`${msg.src}:${msg.count}`] || [];
      if (!dsts.includes(msg.dst)) return refuse("that move is not allowed (harness)");
      push();
      doMove(v, msg.src, msg.dst, msg.count);
      return publish(v, `moved ${msg.count} from ${"abcdefghij"[msg.src]} to ${"abcdefghij"[msg.dst]}`,
        { kind: "move", src: msg.src, dst: msg.dst, count: msg.count });
    }
    case "click": {
      const dsts = view.targets[`${msg.src}:${msg.count}`] || [];
      if (!dsts.length) return refuse("no move for that card (harness)");
      push();
      doMove(v, msg.src, dsts[0], msg.count);
      return publish(v, `moved ${msg.count} to ${"abcdefghij"[dsts[0]]}`,
        { kind: "move", src: msg.src, dst: dsts[0], count: msg.count });
    }
    case "deal": {
      if (!view.can_deal) return refuse(view.deal_error || "cannot deal");
      push();
      for (const c of v.tableau) c.up.push(current.pool.shift() || "AS");
      v.deals_left -= 1;
      v.stock = Math.max(0, v.stock - v.tableau.length);
      return publish(v, "dealt", { kind: "deal", count: v.tableau.length });
    }
    case "undo": {
      if (!history.length) return refuse("nothing to undo");
      future.push(clone(view));
      return publish(history.pop(), "undone", { kind: "undo" });
    }
    case "redo": {
      if (!future.length) return refuse("nothing to redo");
      history.push(clone(view));
      return publish(future.pop(), "redone", { kind: "redo" });
    }
    case "hint": {
      for (const [key, dsts] of Object.entries(view.targets)) {
        if (dsts.length) {
          const [src, count] = key.split(":").map(Number);
          v.version += 1;
          v.hint = { src, dst: dsts[0], count, kind: "move", reason: "harness hint" };
          v.message = `hint: ${count} from ${"abcdefghij"[src]} to ${"abcdefghij"[dsts[0]]}`;
          return model.set("view", v);
        }
      }
      return refuse("no hint");
    }
    case "new":
    case "restart": {
      history = [];
      future = [];
      current = sample(msg.action === "new" ? msg.variant : view.variant, msg.suits || view.suits);
      return publish(current.view, msg.action === "new" ? "new game" : "restarted", { kind: msg.action });
    }
    case "send":
      return refuse("nothing to send (harness)");
    default:
      return refuse(`unknown action ${msg.action}`);
  }
}
model.onSend = (msg) => answer(msg);

// ---- mount ---------------------------------------------------------------------------------------
if (params.get("dark") === "1") document.body.dataset.jpThemeLight = "false";
const width = params.get("width") || "960";
const nviews = Number(params.get("views") || 1);
window.cleanups = [];
for (let i = 0; i < nviews; i++) {
  const mount = document.createElement("div");
  mount.className = "mount";
  mount.id = `mount${i}`;
  mount.style.width = `${width}px`;
  document.getElementById("mounts").append(mount);
  const cleanup = widget.render({ model, el: mount });
  window.cleanups.push(cleanup);
}

// time one full redraw of every view (ms)
window.timeRender = (v) => {
  const t0 = performance.now();
  model.set("view", clone(v || model.get("view")));
  return performance.now() - t0;
};
window.harnessReady = true;
