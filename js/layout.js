// Sizes: the card width that fits the widget (CSS variables --card-w, --gap, --pad), the face style
// (full, small, compact), and the fan geometry of the columns (offsets between cards, in card heights).
//
// The width decides first: every column side by side, cards from MAX_CARD_W down to MIN_CARD_W (below
// COMPACT_W a card shows its rank and suit only); narrower still, the felt scrolls sideways (it never
// clips). Then the height: the felt should never need the page to scroll once the widget is in view. Its
// budget is the visible height of the notebook area (the nearest ancestor that scrolls, else the window)
// less the widget's own chrome above it; a long column is compressed first (down to a readable strip), the
// cards shrink (down to HEIGHT_FLOOR_W) when even the compressed column would not fit, and past that the
// felt scrolls inside itself (--felt-max, .sp-vscroll).

const FAN = { up: 0.27, down: 0.11, minUp: 0.19, minDown: 0.05 };
// compact faces: the rank and suit strip takes more of a (small) card, so the fan is wider
const FAN_COMPACT = { up: 0.36, down: 0.12, minUp: 0.33, minDown: 0.07 };
const CARD_RATIO = 1.4; // height / width
const MAX_CARD_W = 100;
const SMALL_W = 60; // below: no bottom and top-right corners, a bigger index
const COMPACT_W = 46; // below: compact faces (rank and suit only)
const MIN_CARD_W = 28; // below: the felt scrolls sideways
const HEIGHT_FLOOR_W = 50; // the height never shrinks cards below this (the felt scrolls instead)
const GAP_RATIO = 0.14; // gap between columns / card width
const ROOT_PAD = 8; // px, as in css/base.css (.spiderette padding)
const CHROME_PX = 280; // (not measured yet) the notebook's bars and the widget's chrome, roughly
const MIN_GUESS_PX = 320; // (not measured) the felt's height at least
const MIN_FELT_PX = 150; // the felt's budget is never less (a stock row, the letters, two rows of small cards)
const SLACK_PX = 6; // kept free below the felt (rounding, the output area's edge)
const SCROLLBAR_PX = 12; // the felt's own (thin) scrollbar, when it scrolls sideways
const TIGHT_PX = 320; // a widget narrower than this folds its less used controls behind More
const ROOM = 0.25; // felt below the longest column, in card heights: room to drop a card or two
const ROW_STEP = 0.25; // the felt grows by a quarter of a card height
const MIN_ROWS = 1.5;
const MAX_ROWS = [2.6, 6]; // bounds of the tableau's height before compression, in card heights

// The fanned height of a column (card heights) with offsets fd (after a face-down card), fu (face-up).
const height = (nd, nu, fd, fu) => 1 + nd * fd + nu * fu;

// Offsets of one column so that it fits in maxRows card heights (compress face-down first).
function fan(down, up, maxRows, spec) {
  const nd = up > 0 ? down : Math.max(0, down - 1);
  const nu = Math.max(0, up - 1);
  let fd = spec.down;
  let fu = spec.up;
  if (height(nd, nu, fd, fu) > maxRows && nd) fd = Math.max(spec.minDown, (maxRows - 1 - nu * fu) / nd);
  if (height(nd, nu, fd, fu) > maxRows && nu) fu = Math.max(spec.minUp, (maxRows - 1 - nd * fd) / nu);
  return { fd, fu, rows: down + up ? height(nd, nu, fd, fu) : 1 };
}

// The tallest column at the most compression (card heights).
function tallestAtMost(tableau, spec) {
  let rows = 1;
  for (const c of tableau) {
    const up = c.up.length;
    const nd = up > 0 ? c.down : Math.max(0, c.down - 1);
    rows = Math.max(rows, height(nd, Math.max(0, up - 1), spec.minDown, spec.minUp));
  }
  return rows;
}

/** The fan geometry that the sizer gives when it has not measured anything (tests, other hosts). */
export const DEFAULT_GEOMETRY = { maxRows: 4.2, compact: false };

/**
 * The fan of every column of a (normalised) tableau: `fans[i]` = {fd, fu} (offsets after a face-down
 * and after a face-up card), and `rows`, the height of the tableau in card heights: the longest column
 * and a little room, by quarter card heights, at least `geometry.minRows` (the felt does not shrink during
 * a game), compressed columns to at most `geometry.maxRows`.
 */
export function fanTableau(tableau, geometry = DEFAULT_GEOMETRY) {
  const spec = geometry.compact ? FAN_COMPACT : FAN;
  const maxRows = geometry.maxRows || DEFAULT_GEOMETRY.maxRows;
  let tallest = 1;
  const fans = tableau.map((c) => {
    const f = fan(c.down, c.up.length, maxRows, spec);
    tallest = Math.max(tallest, f.rows);
    return f;
  });
  const stepped = Math.ceil((tallest + ROOM) / ROW_STEP) * ROW_STEP;
  const floor = Math.min(geometry.minRows || 0, maxRows + 0.1);
  const rows = Math.max(MIN_ROWS, tallest + 0.06, Math.min(Math.max(stepped, floor), maxRows + 0.1));
  return { fans, rows };
}

const applied = new WeakMap(); // root -> the sizes last written on it

// The column letters' row, in px, for cards `w` px wide (as in css/table.css: .sp-letters).
const lettersPx = (w) => 0.14 * w + 1.2 * Math.max(11, 0.15 * w);

// The tableau's rows (card heights) that a felt `inner` px high (inside its padding) holds, cards `w` wide:
// the stock row and the letters above, and the 0.1 row fanTableau may add past maxRows.
const rowsIn = (inner, w) => (inner - lettersPx(w)) / (CARD_RATIO * w) - 1 - 0.1;

// The card size for `tableau` in `width` px (the root's content width; 0: measure the root), the felt at
// most `budget` px high (0: not measured, the window's height less CHROME_PX). Sets the CSS variables and
// classes on `root`; returns the geometry {maxRows, compact, w, inner}.
function fit(root, width, tableau, budget) {
  if (!(width > 0)) width = (root.clientWidth || 0) - 2 * ROOT_PAD;
  const n = Math.max(1, tableau.length);
  let w = MAX_CARD_W;
  let pad = 12;
  let sideways = false;
  if (width > 0) {
    pad = width < 500 ? 6 : 12;
    const avail = width - 2 * pad; // the felt's own padding
    w = Math.floor(avail / (n + (n - 1) * GAP_RATIO));
    sideways = w < MIN_CARD_W;
  }
  w = Math.max(MIN_CARD_W, Math.min(MAX_CARD_W, w));
  // The height: compress the longest column to fit, and shrink the cards when even that fails.
  const vh = typeof window !== "undefined" ? windowHeight() : 0;
  const felt = budget > 0 ? budget : vh > 0 ? Math.max(MIN_GUESS_PX, vh - CHROME_PX) : 0;
  const inner = felt > 0 ? felt - 2 * pad - (sideways ? SCROLLBAR_PX : 0) : 0;
  if (inner > 0) {
    const spec = w < COMPACT_W ? FAN_COMPACT : FAN;
    const need = Math.max(MAX_ROWS[0], tallestAtMost(tableau, spec) + 0.06);
    const floor = Math.min(w, HEIGHT_FLOOR_W);
    while (w > floor && rowsIn(inner, w) < need) w--;
  }
  // (measured: the budget alone bounds the felt; a guess from the window: at most MAX_ROWS[1] rows)
  const maxRows = inner > 0
    ? Math.min(budget > 0 ? Infinity : MAX_ROWS[1], Math.max(MAX_ROWS[0], rowsIn(inner, w)))
    : DEFAULT_GEOMETRY.maxRows;
  const gap = Math.max(3, Math.round(w * GAP_RATIO));
  const compact = w < COMPACT_W;
  // (written only when they change: a new --card-w restyles every card of the widget)
  const key = `${w}|${gap}|${pad}|${width > 0 && width < 560}|${width > 0 && width < TIGHT_PX}|${budget}`;
  if (applied.get(root) !== key) {
    applied.set(root, key);
    root.style.setProperty("--card-w", `${w}px`);
    root.style.setProperty("--gap", `${gap}px`);
    root.style.setProperty("--pad", `${pad}px`);
    if (budget > 0) root.style.setProperty("--felt-max", `${Math.floor(budget)}px`);
    else root.style.removeProperty("--felt-max");
    root.classList.toggle("sp-small", w < SMALL_W && !compact);
    root.classList.toggle("sp-compact", compact);
    // the toolbar goes compact too on a narrow widget
    root.classList.toggle("sp-narrow", width > 0 && width < 560);
    // and below TIGHT_PX, only the controls played with (More shows the others)
    root.classList.toggle("sp-tight", width > 0 && width < TIGHT_PX);
  }
  return { w, maxRows: Math.round(maxRows * 20) / 20, compact, inner: budget > 0 ? inner : 0 };
}

// The height of the window's visible area: innerHeight counts a horizontal scrollbar of the page, which hides
// what lies under it (the felt's bottom fell under the scrollbar), the root element's clientHeight does not.
function windowHeight() {
  const vh = window.innerHeight;
  const root = typeof document !== "undefined" ? document.documentElement : null;
  return root && root.clientHeight > 0 ? Math.min(vh, root.clientHeight) : vh;
}

// The next ancestor of `e`, across a shadow root's edge (marimo draws widgets in one).
const up = (e) => e.parentElement || (e.parentNode && e.parentNode.host) || null;

/**
 * The element whose visible box is the notebook area the widget `root` is seen in: the nearest ancestor
 * that scrolls vertically (JupyterLab's and Notebook 7's .jp-WindowedPanel-outer, an older .jp-Notebook,
 * an output with a fixed height); null: the window (VS Code, marimo, a plain page). An output area that
 * only wraps the widget (overflow: auto, its height the widget's) is not one.
 */
export function findScroller(root) {
  const own = root.offsetHeight;
  for (let e = up(root); e && e !== document.body && e !== document.documentElement; e = up(e)) {
    if (!/(auto|scroll|overlay)/.test(getComputedStyle(e).overflowY)) continue;
    if (e.scrollHeight > e.clientHeight + 1 || e.clientHeight > own + 32) return e;
  }
  return null;
}

// The height of what `scroller` (null: the window) shows, within the window.
function visibleHeight(scroller) {
  const vh = windowHeight();
  if (!scroller) return vh;
  const r = scroller.getBoundingClientRect();
  const top = r.top + scroller.clientTop;
  return Math.max(0, Math.min(vh, top + scroller.clientHeight) - Math.max(0, top));
}

/**
 * Keeps the cards of `root` sized to its width and the window's height (ResizeObserver, window
 * resizes) and to the table shown. `on` adds a listener that the widget's cleanup removes;
 * `relayout()` is called when a resize changes the fan (compact faces, the height allowed): the table
 * must be drawn again. `stage` (the game widget: the felt's box, a child of `root`): the felt's height
 * is bounded by the notebook area's visible height less what lies above the stage in the widget, both
 * watched. Returns {layout(tableau, keep) -> geometry, fit(), disconnect()}.
 */
export function createSizer(root, on, relayout, stage = null) {
  let width = 0; // the root's content width, from the ResizeObserver
  let budget = 0; // the felt's height at most (px; 0: not measured)
  let scroller; // the notebook area (undefined: not looked for; null: the window)
  let tableau = Array.from({ length: 7 }, () => ({ down: 0, up: [] }));
  let geometry = null;
  let floor = 0; // the felt's height so far in this game (card heights): it does not shrink
  const measure = () => {
    const g = fit(root, width, tableau, budget);
    g.minRows = floor;
    return g;
  };
  // Does the felt drawn with `g` (and `rows` rows) need to scroll inside itself?
  const scrolls = (g, rows) => g.inner > 0 && rows > g.maxRows + 0.1 + 1e-6;
  const refit = () => {
    const before = geometry;
    geometry = measure();
    if (relayout && before && (before.compact !== geometry.compact || before.maxRows !== geometry.maxRows)) {
      relayout();
    }
  };
  const ro = typeof ResizeObserver !== "undefined"
    ? new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        if (e.target !== root) continue;
        const w = e.contentRect.width;
        if (Math.abs(w - width) >= 1) {
          width = w;
          changed = true;
        }
      }
      if (measureBudget() || changed) refit();
    })
    : null;
  // The felt's budget: what the notebook area shows, less the widget's chrome above the stage and the
  // root's padding below it. (Read in a ResizeObserver's callback or on a window resize: the layout is
  // fresh.) True when it changed.
  function measureBudget() {
    if (!stage || !root.isConnected) return false;
    if (scroller === undefined || (scroller && !scroller.contains(root))) {
      if (scroller && ro) ro.unobserve(scroller);
      scroller = findScroller(root);
      if (scroller && ro) ro.observe(scroller);
    }
    const chrome = stage.offsetTop + ROOT_PAD;
    const b = Math.max(MIN_FELT_PX, Math.floor(visibleHeight(scroller) - chrome - SLACK_PX));
    if (Math.abs(b - budget) < 1) return false;
    budget = b;
    return true;
  }
  if (ro) {
    ro.observe(root);
    // (what lies above the stage: the toolbar and the status lines, when they wrap)
    if (stage) for (const e of root.children) if (e !== stage) ro.observe(e);
  }
  on(window, "resize", () => {
    measureBudget();
    refit();
  });
  return {
    /**
     * Size the cards for `t` (a normalised tableau) and return the geometry to draw it with. `keep`:
     * the same game goes on, so the felt keeps its height (it grows, it does not shrink: the table and
     * what lies below it stay put when columns get shorter, or the last run leaves).
     */
    layout(t, keep = false) {
      if (!keep || t.length !== tableau.length) floor = 0;
      tableau = t;
      geometry = measure();
      const { rows } = fanTableau(t, geometry);
      floor = Math.max(floor, rows);
      geometry.minRows = floor;
      const vscroll = scrolls(geometry, rows);
      if (root.classList.contains("sp-vscroll") !== vscroll) root.classList.toggle("sp-vscroll", vscroll);
      return geometry;
    },
    fit: refit,
    disconnect() {
      if (ro) ro.disconnect();
    },
  };
}
