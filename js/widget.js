// spiderette: the browser front end of the Jupyter widget (an anywidget ES module).
//
// The front end holds NO game rules. It draws `model.get("view")` (see docs/widget-protocol.md)
// and sends intents with `model.send(...)`. Whatever it highlights as legal comes from the view:
// `view.targets`, `view.can_deal`, `view.sendable`, `view.hint`. Python answers every intent
// with a new view, and every drawing comes from the model, so several views of one model stay in step.

const RANK_NAME = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const RANK_LABEL = { T: "10" };
// U+FE0E asks for the text (not emoji) presentation of the suit symbols.
const SUIT = {
  S: { name: "spades", sym: "\u2660\uFE0E" },
  H: { name: "hearts", sym: "\u2665\uFE0E" },
  D: { name: "diamonds", sym: "\u2666\uFE0E" },
  C: { name: "clubs", sym: "\u2663\uFE0E" },
};
const VARIANTS = [
  ["spiderette", "Spiderette"],
  ["red_black_spiderette", "Red & Black Spiderette"],
  ["will_o_the_wisp", "Will o' the Wisp"],
  ["spider", "Spider (2 decks)"],
];
const SUIT_CHOICES = [["4", "4 suits"], ["2", "2 suits"], ["1", "1 suit"]];
const BANNER = {
  won: "You won!",
  lost: "No moves left: the game is lost",
  dead_end: "Dead end: no deal can ever be made; undo to go back",
};

// Fan geometry, in units of the card height.
const FAN_UP = 0.27; // offset between face-up cards
const FAN_DOWN = 0.11; // offset after a face-down card
const MIN_UP = 0.19; // compressed offsets: the top strip (rank + suit) stays readable
const MIN_DOWN = 0.05;
const MIN_ROWS = 3.0; // the tableau is at least this many card heights tall
const CARD_RATIO = 1.4; // height / width
const MAX_CARD_W = 100;
const MIN_CARD_W = 34;
const GAP_RATIO = 0.14; // gap between columns / card width
const DRAG_THRESHOLD = 4; // px: less than this is a click
const ANIM_MS = 150;
const RUN_LENGTH = 13;
const ROOT_PAD = 8; // px, as in widget.css (.spiderette padding)

let instances = 0;

const letter = (i) => {
  let s = "";
  i += 1;
  while (i > 0) {
    const r = (i - 1) % 26;
    s = String.fromCharCode(97 + r) + s;
    i = Math.floor((i - 1) / 26);
  }
  return s;
};

function cardName(code) {
  const r = RANK_NAME[code[0]] || code[0];
  const s = SUIT[code[1]] ? SUIT[code[1]].name : code.slice(1);
  return `${r} of ${s}`;
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

// One prototype per card code, cloned for every drawing (fast, and one place for the markup).
const faceCache = new Map();
function cardFace(code) {
  let proto = faceCache.get(code);
  if (!proto) {
    const rank = code[0];
    const suit = SUIT[code[1]] || { name: "?", sym: "?" };
    const label = RANK_LABEL[rank] || rank;
    const court = rank === "J" || rank === "Q" || rank === "K";
    proto = h("div", {
      class: `sp-card sp-up sp-s${code[1] ? code[1].toLowerCase() : "x"}${court ? " sp-court" : ""}`,
      role: "img",
      "data-card": code,
    });
    const corner = (cls) =>
      h("span", { class: `sp-corner ${cls}`, "aria-hidden": "true" },
        h("span", { class: "sp-rank", text: label }),
        h("span", { class: "sp-suit", text: suit.sym }));
    proto.append(
      corner("sp-tl"),
      h("span", { class: "sp-corner sp-tr", "aria-hidden": "true", text: suit.sym }),
      court
        ? h("span", { class: "sp-pip", "aria-hidden": "true" },
          h("span", { class: "sp-court-rank", text: label }),
          h("span", { class: "sp-court-suit", text: suit.sym }))
        : h("span", { class: "sp-pip", "aria-hidden": "true", text: suit.sym }),
      corner("sp-br"),
    );
    faceCache.set(code, proto);
  }
  return proto.cloneNode(true);
}

// Offsets of one column so that it fits in maxRows card heights (compress face-down first).
function fan(down, up, maxRows) {
  const nd = up > 0 ? down : Math.max(0, down - 1);
  const nu = Math.max(0, up - 1);
  let fd = FAN_DOWN;
  let fu = FAN_UP;
  const need = () => 1 + nd * fd + nu * fu;
  if (need() > maxRows && nd) fd = Math.max(MIN_DOWN, (maxRows - 1 - nu * fu) / nd);
  if (need() > maxRows && nu) fu = Math.max(MIN_UP, (maxRows - 1 - nd * fd) / nu);
  return { fd, fu, rows: down + up ? need() : 1 };
}

function tableauSignature(v) {
  return JSON.stringify([v.tableau, v.foundations, v.stock]);
}

const reducedMotion = () =>
  typeof window !== "undefined" && window.matchMedia &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function render({ model, el }) {
  const uid = `sp${++instances}`;
  const ac = new AbortController();
  const on = (target, type, fn, opts) =>
    target.addEventListener(type, fn, { ...(opts || {}), signal: ac.signal });

  // ---- persistent skeleton -------------------------------------------------------------------
  const root = h("div", {
    class: "spiderette",
    tabindex: "0",
    role: "group",
    "aria-roledescription": "solitaire",
    "aria-label": "Spiderette solitaire. Arrows move, Enter picks up and drops, Escape cancels; " +
      "U undo, R redo, H hint, D deal, N new game.",
    // JupyterLab: do not run notebook shortcuts (e.g. D,D deletes the cell) for keys typed here.
    "data-lm-suppress-shortcuts": "true",
  });

  const button = (action, label, title, extra) =>
    h("button", { type: "button", class: `sp-btn${extra ? " " + extra : ""}`, "data-action": action, title, text: label });
  const selVariant = h("select", { "data-control": "variant", "aria-label": "Variant for a new game", title: "Variant for a new game" });
  for (const [value, label] of VARIANTS) selVariant.append(h("option", { value, text: label }));
  const selSuits = h("select", { "data-control": "suits", "aria-label": "Suits for a new game", title: "Suits for a new game" });
  for (const [value, label] of SUIT_CHOICES) selSuits.append(h("option", { value, text: label }));

  const btnUndo = button("undo", "Undo", "Undo (Ctrl+Z or U)");
  const btnRedo = button("redo", "Redo", "Redo (Ctrl+Y or R)");
  const stat = (key, label) => {
    const value = h("span", { class: "sp-stat-value", "data-status": key });
    return [h("span", { class: "sp-stat" }, h("span", { class: "sp-stat-label", text: label }), value), value];
  };
  const [statScore, valScore] = stat("score", "Score");
  const [statMoves, valMoves] = stat("moves", "Moves");
  const [statDeals, valDeals] = stat("deals", "Deals");
  const [statRuns, valRuns] = stat("runs", "Runs");
  const title = h("span", { class: "sp-title" });

  const toolbar = h("div", { class: "sp-bar", role: "toolbar", "aria-label": "Game controls" },
    h("span", { class: "sp-group" },
      button("new", "New game", "New game with the chosen variant and suits (N)", "sp-primary"),
      selVariant, selSuits),
    h("span", { class: "sp-group" },
      button("restart", "Restart", "Restart this deal"),
      btnUndo, btnRedo,
      button("hint", "Hint", "Show a good move (H)")));
  const stats = h("div", { class: "sp-stats" }, title, statScore, statMoves, statDeals, statRuns);
  const message = h("div", { class: "sp-message", "data-status": "message" });
  const bannerSlot = h("div", { class: "sp-banner-slot" });
  const table = h("div", { class: "sp-table" });
  const live = h("div", { class: "sp-sr", "aria-live": "polite", "aria-atomic": "true" });
  root.append(toolbar, stats, message, bannerSlot, table, live);
  el.append(root);

  // ---- state ---------------------------------------------------------------------------------
  const st = {
    view: null, // the view drawn now
    sig: "",
    cols: 7,
    refs: null, // {stock, piles[], foundations, fslots[], cards[][]}
    cursor: { col: 0, depth: 1 },
    sel: null, // keyboard pick-up {src, k}
    press: null, // pointer press / drag
    game: "", // variant+suits shown in the selects
    liveText: "",
    liveToggle: false,
    width: 0,
    pointerFocus: false, // a pointer is down: focus now comes from it
  };

  const getView = () => {
    const v = model.get("view");
    return v && typeof v === "object" ? v : {};
  };
  const tableauOf = (v) => (Array.isArray(v.tableau) ? v.tableau : []);
  const colInfo = (v, i) => {
    const c = tableauOf(v)[i] || {};
    const up = Array.isArray(c.up) ? c.up : [];
    const down = c.down | 0;
    return { down, up, movable: c.movable | 0, total: down + up.length };
  };
  const send = (msg) => {
    const v = st.view || getView();
    model.send({ ...msg, version: v.version });
  };

  // ---- sizing --------------------------------------------------------------------------------
  // `width`: the content width of the root (ResizeObserver's contentRect).
  function fit(width) {
    if (!(width > 0)) width = (root.clientWidth || 0) - 2 * ROOT_PAD;
    const n = Math.max(1, st.cols);
    let w = MAX_CARD_W;
    let pad = 12;
    if (width > 0) {
      pad = width < 500 ? 6 : 12;
      const avail = width - 2 * pad; // the felt's own padding
      w = Math.floor(avail / (n + (n - 1) * GAP_RATIO));
    }
    // Also keep a whole table (stock row + a tall tableau) within the window's height when it can.
    const vh = typeof window !== "undefined" ? window.innerHeight : 0;
    const byHeight = vh > 0 ? Math.max(64, Math.floor((vh - 120) / (CARD_RATIO * 5.4))) : MAX_CARD_W;
    w = Math.max(MIN_CARD_W, Math.min(MAX_CARD_W, byHeight, w));
    const gap = Math.max(3, Math.round(w * GAP_RATIO));
    root.style.setProperty("--card-w", `${w}px`);
    root.style.setProperty("--gap", `${gap}px`);
    root.style.setProperty("--pad", `${pad}px`);
    root.classList.toggle("sp-small", w < 56);
  }
  const ro = typeof ResizeObserver !== "undefined"
    ? new ResizeObserver((entries) => {
      const w = entries[entries.length - 1].contentRect.width;
      if (Math.abs(w - st.width) >= 1) {
        st.width = w;
        fit(w);
      }
    })
    : null;
  if (ro) ro.observe(root);
  on(window, "resize", () => fit(st.width));

  // ---- drawing -------------------------------------------------------------------------------
  function buildTable(v) {
    const n = Math.max(1, v.columns | 0 || tableauOf(v).length || 7);
    const runsTotal = Math.max(0, v.runs_total | 0 || (n > 7 ? 8 : 4));
    const foundations = Array.isArray(v.foundations) ? v.foundations : [];
    const maxRows = n > 7 ? 4.6 : 4.2;
    const hint = v.hint && typeof v.hint === "object" ? v.hint : null;
    const sendable = Array.isArray(v.sendable) ? v.sendable : [];
    const refs = { piles: [], cards: [], fslots: [], stock: null, foundations: null };
    const frag = document.createDocumentFragment();
    const grid = `repeat(${n}, var(--card-w))`;

    // top row: stock, foundations
    const top = h("div", { class: "sp-top" });
    top.style.gridTemplateColumns = grid;
    const deals = v.deals_left | 0;
    const stock = h("div", {
      class: `sp-pile sp-stock${v.can_deal ? "" : " sp-disabled"}${deals ? "" : " sp-empty"}`,
      "data-pile": "stock",
      role: "button",
      "aria-label": `stock: ${deals} ${deals === 1 ? "deal" : "deals"} left. Deal (D)`,
      title: v.can_deal ? "Deal a card to every column (D)" : (v.deal_error || "No deal possible"),
    });
    stock.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
    const backs = Math.min(deals, 5);
    for (let i = 0; i < backs; i++) {
      const b = h("div", { class: "sp-card sp-back", "aria-hidden": "true" });
      b.style.setProperty("--s", String(i));
      stock.append(b);
    }
    stock.append(h("span", { class: "sp-count", "aria-hidden": "true", text: String(deals) }));
    if (hint && hint.kind === "deal") stock.classList.add("sp-hint-dst");
    refs.stock = stock;
    top.append(stock);

    const fbox = h("div", { class: "sp-foundations", "aria-label": "completed runs" });
    const start = runsTotal <= n - 1 ? n - runsTotal + 1 : 2;
    fbox.style.gridColumn = `${start} / ${n + 1}`;
    for (let i = 0; i < runsTotal; i++) {
      const slot = h("div", { class: "sp-pile sp-fslot", "data-pile": `foundation-${i}` });
      slot.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
      const code = foundations[i];
      if (typeof code === "string" && code) {
        const c = cardFace(code);
        c.setAttribute("aria-label", `${cardName(code)}, completed run`);
        slot.append(c);
      } else {
        slot.setAttribute("aria-label", "empty foundation");
      }
      refs.fslots.push(slot);
      fbox.append(slot);
    }
    refs.foundations = fbox;
    top.append(fbox);
    frag.append(top);

    // column letters
    const letters = h("div", { class: "sp-letters", "aria-hidden": "true" });
    letters.style.gridTemplateColumns = grid;
    for (let i = 0; i < n; i++) letters.append(h("span", { class: "sp-letter", text: letter(i) }));
    frag.append(letters);

    // tableau
    const tab = h("div", { class: "sp-tableau" });
    tab.style.gridTemplateColumns = grid;
    let rows = MIN_ROWS;
    const fans = [];
    for (let i = 0; i < n; i++) {
      const c = colInfo(v, i);
      const f = fan(c.down, c.up.length, maxRows);
      fans.push(f);
      rows = Math.max(rows, f.rows + 0.08);
    }
    tab.style.setProperty("--rows", rows.toFixed(3));
    for (let i = 0; i < n; i++) {
      const c = colInfo(v, i);
      const L = letter(i);
      const pile = h("div", {
        class: "sp-pile sp-col",
        "data-pile": `tableau-${i}`,
        id: `${uid}-p${i}`,
        "aria-label": c.total
          ? `column ${L}: ${c.down} face-down, ${c.up.length} face-up`
          : `column ${L}: empty`,
      });
      pile.append(h("div", { class: "sp-slot", "aria-hidden": "true" }));
      const f = fans[i];
      const els = [];
      let t = 0;
      for (let j = 0; j < c.down; j++) {
        const d = h("div", {
          class: "sp-card sp-down",
          "data-face": "down",
          "data-col": i,
          "data-index": j,
          role: "img",
          "aria-label": `face-down card, column ${L}`,
        });
        d.style.setProperty("--t", t.toFixed(4));
        t += f.fd;
        els.push(d);
      }
      const hintSrc = hint && hint.src === i && hint.kind !== "deal" ? Math.max(1, hint.count | 0) : 0;
      const sendRun = sendable.includes(i);
      c.up.forEach((code, j) => {
        const index = c.down + j;
        const k = c.total - index;
        const card = cardFace(code);
        card.dataset.col = String(i);
        card.dataset.index = String(index);
        card.id = `${uid}-c${i}-${index}`;
        card.setAttribute("aria-label", `${cardName(code)}, column ${L}`);
        if (k <= c.movable) card.classList.add("sp-movable");
        if (sendRun && k <= RUN_LENGTH) card.classList.add("sp-sendable");
        if (k <= hintSrc) card.classList.add("sp-hint-src");
        card.style.setProperty("--t", t.toFixed(4));
        t += f.fu;
        els.push(card);
      });
      pile.append(...els);
      if (hint && hint.dst === i && hint.kind !== "deal") pile.classList.add("sp-hint-dst");
      refs.piles.push(pile);
      refs.cards.push(els);
      tab.append(pile);
    }
    if (hint && hint.kind === "send") {
      const slot = refs.fslots[foundations.length];
      if (slot) slot.classList.add("sp-hint-dst");
    }
    frag.append(tab);
    return { frag, refs, n };
  }

  function updateChrome(v) {
    valScore.textContent = String(v.score ?? 0);
    valMoves.textContent = String(v.moves ?? 0);
    valDeals.textContent = String(v.deals_left ?? 0);
    valRuns.textContent = `${v.runs ?? 0}/${v.runs_total ?? 0}`;
    message.textContent = v.message || "";
    btnUndo.disabled = !v.can_undo;
    btnRedo.disabled = !v.can_redo;
    const variant = VARIANTS.find(([k]) => k === v.variant);
    const suits = v.suits | 0;
    title.textContent = `${variant ? variant[1] : v.variant || "Spiderette"}${suits ? ` \u00b7 ${suits} suit${suits === 1 ? "" : "s"}` : ""}`;
    // The choosers follow the game being played, but keep a choice the player made since then.
    const game = `${v.variant}|${v.suits}`;
    if (game !== st.game) {
      st.game = game;
      if (VARIANTS.some(([k]) => k === v.variant)) selVariant.value = v.variant;
      if (SUIT_CHOICES.some(([k]) => k === String(v.suits))) selSuits.value = String(v.suits);
    }
    // banner
    const status = v.status || "playing";
    const current = bannerSlot.firstChild;
    if (status === "playing" || !BANNER[status]) {
      if (current) current.remove();
    } else if (!current || current.getAttribute("data-banner") !== status) {
      if (current) current.remove();
      const b = h("div", { class: `sp-banner sp-banner-${status}`, "data-banner": status, role: "alert" },
        h("span", { class: "sp-banner-text", text: BANNER[status] }));
      if (status === "won") {
        b.append(h("button", { type: "button", class: "sp-btn", "data-banner-action": "new", text: "Play again" }));
      } else {
        b.append(h("button", { type: "button", class: "sp-btn", "data-banner-action": "undo", text: "Undo" }));
      }
      bannerSlot.append(b);
    }
    // screen-reader mirror of the message line (re-announce a repeated message after a new answer)
    const text = v.message || "";
    if (text !== st.liveText) {
      st.liveText = text;
      live.textContent = text;
    } else if (text && st.view && st.view.version !== v.version) {
      st.liveToggle = !st.liveToggle;
      live.textContent = text + (st.liveToggle ? "\u00a0" : "");
    }
  }

  // ---- animation (FLIP) ----------------------------------------------------------------------
  function snapshot() {
    if (!st.refs || reducedMotion() || !root.isConnected) return null;
    const cards = st.refs.cards.map((els) => els.map((e) => e.getBoundingClientRect()));
    const codes = st.refs.cards.map((els) => els.map((e) => e.dataset.card || null));
    const founds = st.refs.fslots.map((s) => {
      const c = s.querySelector(".sp-card");
      return c ? c.getBoundingClientRect() : null;
    });
    return { cards, codes, founds, stock: st.refs.stock.getBoundingClientRect(), table: table.getBoundingClientRect() };
  }

  // `shift`: how far the whole table moved between the two drawings (e.g. a banner appeared).
  let shift = { x: 0, y: 0 };
  function animate(el, from) {
    if (!from || typeof el.animate !== "function") return;
    const to = el.getBoundingClientRect();
    const dx = from.left + shift.x - to.left;
    const dy = from.top + shift.y - to.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
    el.classList.add("sp-moving");
    try {
      const a = el.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration: ANIM_MS, easing: "cubic-bezier(.2,.7,.3,1)" });
      const done = () => el.classList.remove("sp-moving");
      a.onfinish = done;
      a.oncancel = done;
    } catch (_) {
      el.classList.remove("sp-moving");
    }
  }

  function flip(before, prev, v, sameTableau) {
    if (!before || !st.refs) return;
    const refs = st.refs;
    const now = table.getBoundingClientRect();
    shift = { x: now.left - before.table.left, y: now.top - before.table.top };
    if (sameTableau) {
      // Same cards in the same places: only cards that were dragged away spring back.
      refs.cards.forEach((els, i) => els.forEach((e, j) => {
        const r = before.cards[i] && before.cards[i][j];
        if (r) animate(e, r);
      }));
      return;
    }
    const last = v.last && typeof v.last === "object" ? v.last : null;
    // A new deal or a restart: cards do not fly from the old game to the new one.
    if (last && (last.kind === "new" || last.kind === "restart")) return;
    if ((prev.columns | 0) !== (v.columns | 0)) return;
    const done = new Set();
    if (last && last.kind === "move" && Number.isInteger(last.src) && Number.isInteger(last.dst)) {
      const k = last.count | 0;
      const oldSrc = before.cards[last.src] || [];
      const oldCodes = before.codes[last.src] || [];
      const newDst = refs.cards[last.dst] || [];
      if (k > 0 && oldSrc.length >= k && newDst.length >= k) {
        for (let j = 0; j < k; j++) {
          const e = newDst[newDst.length - k + j];
          if (e.dataset.card && e.dataset.card === oldCodes[oldSrc.length - k + j]) {
            animate(e, oldSrc[oldSrc.length - k + j]);
            done.add(e);
          }
        }
      }
    }
    if (last && last.kind === "deal") {
      // the new top card of each column that got one comes from the stock
      refs.cards.forEach((els, i) => {
        const e = els[els.length - 1];
        if (e && e.dataset.card && els.length > (before.cards[i] || []).length) {
          animate(e, before.stock);
          done.add(e);
        }
      });
    }
    // Otherwise: follow cards whose code is unique before and after (undo, redo, runs leaving...).
    const count = (lists) => {
      const m = new Map();
      lists.forEach((l) => l.forEach((c) => c && m.set(c, (m.get(c) || 0) + 1)));
      return m;
    };
    const foundCodes = (Array.isArray(prev.foundations) ? prev.foundations : []);
    const oldCount = count([...before.codes, foundCodes]);
    const oldPos = new Map();
    before.codes.forEach((l, i) => l.forEach((c, j) => c && oldPos.set(c, before.cards[i][j])));
    foundCodes.forEach((c, i) => before.founds[i] && oldPos.set(c, before.founds[i]));
    const newCodes = refs.cards.map((els) => els.map((e) => e.dataset.card || null));
    const newFound = refs.fslots.map((s) => s.querySelector(".sp-card")).filter(Boolean);
    const newCount = count([...newCodes, newFound.map((e) => e.dataset.card)]);
    const follow = (e) => {
      const c = e.dataset.card;
      if (!c || done.has(e) || oldCount.get(c) !== 1 || newCount.get(c) !== 1) return;
      animate(e, oldPos.get(c));
    };
    refs.cards.forEach((els) => els.forEach(follow));
    newFound.forEach(follow);
  }

  // ---- redraw ------------------------------------------------------------------------------------
  function redraw(reason) {
    const v = getView();
    const prev = st.view;
    const newVersion = !prev || prev.version !== v.version;
    const sig = tableauSignature(v);
    const sameTableau = !!prev && sig === st.sig;
    const before = reason === "view" ? snapshot() : null;
    if (newVersion || reason === "view") {
      abortPress();
      if (newVersion) st.sel = null;
    }
    const { frag, refs, n } = buildTable(v);
    if (n !== st.cols) {
      st.cols = n;
      fit(st.width);
    }
    table.classList.toggle("sp-wide", n > 7);
    table.replaceChildren(frag);
    st.refs = refs;
    root.classList.toggle("sp-four", !!model.get("four_colour"));
    root.dataset.status = v.status || "playing";
    updateChrome(v);
    st.view = v;
    st.sig = sig;
    applyCursor();
    if (before && prev) flip(before, prev, v, sameTableau);
  }

  // ---- keyboard cursor -----------------------------------------------------------------------
  function clampCursor() {
    const v = st.view || {};
    const n = st.cols;
    const cur = st.cursor;
    cur.col = Math.min(Math.max(0, cur.col | 0), n - 1);
    const c = colInfo(v, cur.col);
    cur.depth = Math.min(Math.max(1, cur.depth | 0), Math.max(1, c.movable));
  }

  function applyCursor() {
    if (!st.refs) return;
    root.querySelectorAll(".sp-cursor, .sp-selected, .sp-target").forEach((e) => {
      e.classList.remove("sp-cursor", "sp-selected", "sp-target");
      e.removeAttribute("aria-current");
    });
    clampCursor();
    const v = st.view || {};
    const { col, depth } = st.cursor;
    const els = st.refs.cards[col] || [];
    let target;
    if (st.sel) {
      const src = st.refs.cards[st.sel.src] || [];
      src.slice(src.length - st.sel.k).forEach((e) => e.classList.add("sp-selected"));
      highlightTargets(st.sel.src, st.sel.k);
      target = els.length ? els[els.length - 1] : st.refs.piles[col];
    } else {
      target = els.length ? els[Math.max(0, els.length - depth)] : st.refs.piles[col];
    }
    if (target) {
      target.classList.add("sp-cursor");
      target.setAttribute("aria-current", "true");
      if (target.id) root.setAttribute("aria-activedescendant", target.id);
    }
    return v;
  }

  function highlightTargets(src, k) {
    const v = st.view || {};
    const targets = (v.targets && v.targets[`${src}:${k}`]) || [];
    for (const d of targets) if (st.refs.piles[d]) st.refs.piles[d].classList.add("sp-target");
    if ((v.sendable || []).includes(src) && k >= RUN_LENGTH) {
      const slot = st.refs.fslots[(v.foundations || []).length];
      if (slot) slot.classList.add("sp-target");
    }
    return targets;
  }

  function say(text) {
    st.liveText = text;
    live.textContent = text;
  }

  function keyboardEnter() {
    const v = st.view || {};
    const { col, depth } = st.cursor;
    const c = colInfo(v, col);
    const L = letter(col);
    if (st.sel) {
      const { src, k } = st.sel;
      st.sel = null;
      applyCursor();
      if (col === src) send({ action: "click", src, count: k });
      else send({ action: "move", src, dst: col, count: k });
      return;
    }
    if (!c.total || !c.up.length) return;
    if ((v.sendable || []).includes(col) && depth <= RUN_LENGTH) {
      send({ action: "send", src: col });
      return;
    }
    if (depth > c.movable) {
      send({ action: "click", src: col, count: depth });
      return;
    }
    st.sel = { src: col, k: depth };
    applyCursor();
    const top = c.up[c.up.length - depth];
    say(`picked up ${depth === 1 ? cardName(top) : `${depth} cards from the ${cardName(top)}`}, column ${L}. ` +
      "Choose a column with the arrow keys and press Enter; Escape cancels.");
  }

  on(root, "keydown", (e) => {
    if (e.target !== root) return; // buttons and selects keep their own keys
    const key = e.key;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    const ctrl = e.ctrlKey || e.metaKey;
    let handled = true;
    const nav = () => {
      root.classList.add("sp-kbd");
      applyCursor();
    };
    if (ctrl && !e.altKey) {
      if (lower === "u") {
        st.sel = null;
        send({ action: "undo" });
      } else if (lower === "z") {
        st.sel = null;
        send({ action: e.shiftKey ? "redo" : "undo" });
      } else if (lower === "y") {
        st.sel = null;
        send({ action: "redo" });
      } else handled = false;
    } else if (e.altKey || ctrl) {
      handled = false;
    } else {
      switch (lower) {
        case "u": st.sel = null; send({ action: "undo" }); break;
        case "r": st.sel = null; send({ action: "redo" }); break;
        case "h": send({ action: "hint" }); break;
        case "d": st.sel = null; send({ action: "deal" }); break;
        case "n":
          st.sel = null;
          send({ action: "new", variant: selVariant.value, suits: Number(selSuits.value) });
          break;
        case "ArrowLeft":
          st.cursor.col = (st.cursor.col - 1 + st.cols) % st.cols;
          st.cursor.depth = 1;
          nav();
          break;
        case "ArrowRight":
          st.cursor.col = (st.cursor.col + 1) % st.cols;
          st.cursor.depth = 1;
          nav();
          break;
        case "Tab": {
          const next = st.cursor.col + (e.shiftKey ? -1 : 1);
          if (next < 0 || next >= st.cols) {
            handled = false; // let focus leave the widget: no keyboard trap
          } else {
            st.cursor.col = next;
            st.cursor.depth = 1;
            nav();
          }
          break;
        }
        case "ArrowUp":
          if (!st.sel) st.cursor.depth += 1;
          nav();
          break;
        case "ArrowDown":
          if (!st.sel) st.cursor.depth -= 1;
          nav();
          break;
        case "Enter":
        case " ":
          root.classList.add("sp-kbd");
          keyboardEnter();
          break;
        case "Escape":
          if (st.sel) {
            st.sel = null;
            applyCursor();
            say("cancelled");
          } else handled = false;
          break;
        default:
          handled = false;
      }
    }
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  });

  // Focus that does not come from a pointer (Tab, script) shows the keyboard cursor.
  on(root, "focus", () => {
    if (!st.pointerFocus) root.classList.add("sp-kbd");
    applyCursor();
  });
  on(root, "blur", () => root.classList.remove("sp-kbd"));
  on(document, "pointerup", () => { st.pointerFocus = false; }, { capture: true });
  on(document, "pointercancel", () => { st.pointerFocus = false; }, { capture: true });

  // ---- pointer: click, drag and drop -------------------------------------------------------------
  function clearDragMarks() {
    if (!st.refs) return;
    root.querySelectorAll(".sp-target, .sp-drop-hover, .sp-drag-src").forEach((e) =>
      e.classList.remove("sp-target", "sp-drop-hover", "sp-drag-src"));
  }

  function springBack(els) {
    const anim = !reducedMotion();
    for (const e of els) {
      const from = e.style.transform;
      e.style.transform = "";
      if (anim && from && typeof e.animate === "function" && e.isConnected) {
        try {
          const a = e.animate([{ transform: from }, { transform: "translate(0, 0)" }],
            { duration: ANIM_MS, easing: "ease-out" });
          const done = () => e.classList.remove("sp-dragging");
          a.onfinish = done;
          a.oncancel = done;
          continue;
        } catch (_) { /* fall through */ }
      }
      e.classList.remove("sp-dragging");
    }
  }

  function abortPress() {
    const p = st.press;
    if (!p) return;
    st.press = null;
    try { root.releasePointerCapture(p.pointerId); } catch (_) { /* not captured */ }
    if (p.dragging) {
      clearDragMarks();
      if (p.els) springBack(p.els.filter((e) => e.isConnected));
    }
  }

  function hitTest(p, x, y) {
    // The pile under most of the dragged top card wins; the pointer decides when nothing overlaps.
    const r = p.els[0].getBoundingClientRect();
    let best = null;
    let bestArea = 0;
    const consider = (pile, hit) => {
      const q = pile.getBoundingClientRect();
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const hh = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      const area = w > 0 && hh > 0 ? w * hh : 0;
      if (area > bestArea) {
        bestArea = area;
        best = hit;
      }
      if (!best && x >= q.left && x <= q.right && y >= q.top && y <= q.bottom) best = hit;
    };
    st.refs.piles.forEach((pile, i) => consider(pile, { type: "tableau", col: i, el: pile }));
    st.refs.fslots.forEach((slot) => consider(slot, { type: "foundation", el: slot }));
    return best;
  }

  function startDrag(p) {
    p.dragging = true;
    p.els = (st.refs.cards[p.col] || []).slice(p.index);
    p.els.forEach((e) => e.classList.add("sp-dragging"));
    st.refs.piles[p.col].classList.add("sp-drag-src");
    p.targets = highlightTargets(p.col, p.k);
    root.classList.add("sp-is-dragging");
  }

  on(root, "pointerdown", (e) => {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (e.target.closest("button, select, option, .sp-banner")) return;
    root.classList.remove("sp-kbd");
    if (st.press) abortPress();
    // The browser focuses the root on mousedown (that focus is not :focus-visible, so the keyboard
    // cursor stays hidden); touch and pen get it here.
    st.pointerFocus = true;
    if (e.pointerType !== "mouse" && document.activeElement !== root) root.focus({ preventScroll: true });
    const card = e.target.closest(".sp-card[data-col]");
    if (!card || !st.refs) return;
    if (st.sel) {
      st.sel = null;
      applyCursor();
    }
    if (card.dataset.face === "down") return;
    const col = Number(card.dataset.col);
    const index = Number(card.dataset.index);
    const c = colInfo(st.view, col);
    const k = c.total - index;
    st.cursor = { col, depth: Math.min(k, Math.max(1, c.movable)) };
    st.press = {
      pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, col, index, k,
      movable: k <= c.movable, dragging: false, moved: false, els: null, version: st.view.version,
    };
    try { root.setPointerCapture(e.pointerId); } catch (_) { /* synthetic events */ }
  });

  on(root, "pointermove", (e) => {
    const p = st.press;
    if (!p || e.pointerId !== p.pointerId) return;
    const dx = e.clientX - p.x0;
    const dy = e.clientY - p.y0;
    if (!p.dragging) {
      if (Math.hypot(dx, dy) <= DRAG_THRESHOLD) return;
      p.moved = true;
      if (!p.movable) return;
      startDrag(p);
    }
    e.preventDefault();
    const tr = `translate(${dx}px, ${dy}px)`;
    for (const el of p.els) el.style.transform = tr;
    const hit = hitTest(p, e.clientX, e.clientY);
    const hover = hit && !(hit.type === "tableau" && hit.col === p.col) ? hit.el : null;
    if (hover !== p.hover) {
      if (p.hover) p.hover.classList.remove("sp-drop-hover");
      if (hover) hover.classList.add("sp-drop-hover");
      p.hover = hover;
    }
  });

  on(root, "pointerup", (e) => {
    const p = st.press;
    if (!p || e.pointerId !== p.pointerId) return;
    st.press = null;
    try { root.releasePointerCapture(p.pointerId); } catch (_) { /* ignore */ }
    const v = st.view || {};
    if (!p.dragging) {
      if (p.version !== v.version) return;
      // A drag of cards that cannot move together: ask anyway, so Python says why in the status line.
      if (p.moved && !p.movable) send({ action: "click", src: p.col, count: p.k });
      if (p.moved) return;
      const c = colInfo(v, p.col);
      if ((v.sendable || []).includes(p.col) && p.k <= RUN_LENGTH && c.up.length >= p.k) {
        send({ action: "send", src: p.col });
      } else {
        send({ action: "click", src: p.col, count: p.k });
      }
      return;
    }
    const hit = hitTest(p, e.clientX, e.clientY);
    clearDragMarks();
    root.classList.remove("sp-is-dragging");
    const els = p.els;
    let legal = false;
    let sent = false;
    if (hit && hit.type === "tableau" && hit.col !== p.col) {
      legal = (p.targets || []).includes(hit.col);
      sent = true;
      send({ action: "move", src: p.col, dst: hit.col, count: p.k });
    } else if (hit && hit.type === "foundation" && (v.sendable || []).includes(p.col)) {
      legal = true;
      sent = true;
      send({ action: "send", src: p.col });
    }
    if (!sent || !legal) {
      springBack(els.filter((el) => el.isConnected));
    } else {
      // A legal move: the cards wait where they were dropped for Python's answer (the redraw
      // replaces them); if no answer comes, they go home.
      setTimeout(() => springBack(els.filter((el) => el.isConnected && el.style.transform)), 600);
    }
  });

  const cancel = (e) => {
    if (st.press && e.pointerId === st.press.pointerId) {
      abortPress();
      root.classList.remove("sp-is-dragging");
    }
  };
  on(root, "pointercancel", cancel);
  on(root, "lostpointercapture", cancel);

  on(root, "click", (e) => {
    const t = e.target;
    const btn = t.closest("button");
    if (btn && root.contains(btn)) {
      const action = btn.dataset.action || btn.dataset.bannerAction;
      if (!action) return;
      st.sel = null;
      if (action === "new") send({ action: "new", variant: selVariant.value, suits: Number(selSuits.value) });
      else send({ action });
      return;
    }
    if (t.closest('[data-pile="stock"]')) {
      st.sel = null;
      send({ action: "deal" });
    }
  });

  // ---- model wiring ----------------------------------------------------------------------------
  const onView = () => redraw("view");
  const onFour = () => root.classList.toggle("sp-four", !!model.get("four_colour"));
  model.on("change:view", onView);
  model.on("change:four_colour", onFour);
  redraw("init");
  fit(0);

  return () => {
    model.off("change:view", onView);
    model.off("change:four_colour", onFour);
    if (ro) ro.disconnect();
    ac.abort();
    st.press = null;
    root.remove();
  };
}

// anywidget's module format: a default export with render() (a named `render` export is deprecated).
export default { render };
