// Sizes: the card width that fits the widget (CSS variables --card-w, --gap, --pad), the face style
// (full, small, compact), and the fan geometry of the columns (offsets between cards, in card heights).
//
// The width decides first: every column side by side, cards from MAX_CARD_W down to MIN_CARD_W (below
// COMPACT_W a card shows its rank and suit only); narrower still, the felt scrolls sideways (it never
// clips). Then the height: the table (stock row, letters, tableau) should fit the window, so a long
// column is compressed first, and the cards shrink when even the compressed column would not fit.

const FAN = { up: 0.27, down: 0.11, minUp: 0.19, minDown: 0.05 };
// compact faces: the rank and suit strip takes more of a (small) card, so the fan is wider
const FAN_COMPACT = { up: 0.36, down: 0.12, minUp: 0.33, minDown: 0.07 };
const CARD_RATIO = 1.4; // height / width
const MAX_CARD_W = 100;
const SMALL_W = 60; // below: no bottom and top-right corners, a bigger index
const COMPACT_W = 46; // below: compact faces (rank and suit only)
const MIN_CARD_W = 28; // below: the felt scrolls sideways
const HEIGHT_FLOOR_W = 60; // the window's height never shrinks cards below this
const GAP_RATIO = 0.14; // gap between columns / card width
const ROOT_PAD = 8; // px, as in widget.css (.spiderette padding)
const CHROME_PX = 280; // the notebook's bars and the widget's toolbar, stats and two-line status, roughly
const MIN_FELT_PX = 320;
const TIGHT_PX = 320; // a widget narrower than this folds its less used controls behind More
const LETTER_ROWS = 0.24; // the column letters, in card heights
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

// The card size for `tableau` in `width` px (the root's content width; 0: measure the root). Sets the
// CSS variables and classes on `root`; returns the geometry {maxRows, compact, w}.
function fit(root, width, tableau) {
  if (!(width > 0)) width = (root.clientWidth || 0) - 2 * ROOT_PAD;
  const n = Math.max(1, tableau.length);
  let w = MAX_CARD_W;
  let pad = 12;
  if (width > 0) {
    pad = width < 500 ? 6 : 12;
    const avail = width - 2 * pad; // the felt's own padding
    w = Math.floor(avail / (n + (n - 1) * GAP_RATIO));
  }
  w = Math.max(MIN_CARD_W, Math.min(MAX_CARD_W, w));
  // The window's height: compress the longest column to fit, and shrink the cards when even that fails.
  const vh = typeof window !== "undefined" ? window.innerHeight : 0;
  const felt = vh > 0 ? Math.max(MIN_FELT_PX, vh - CHROME_PX) - 2 * pad : 0;
  if (felt > 0) {
    const spec = w < COMPACT_W ? FAN_COMPACT : FAN;
    const need = Math.max(MAX_ROWS[0], tallestAtMost(tableau, spec) + 0.06);
    const byHeight = Math.floor(felt / (CARD_RATIO * (1 + LETTER_ROWS + need)));
    w = Math.max(Math.min(w, HEIGHT_FLOOR_W), Math.min(w, byHeight));
  }
  const maxRows = felt > 0
    ? Math.min(MAX_ROWS[1], Math.max(MAX_ROWS[0], felt / (CARD_RATIO * w) - 1 - LETTER_ROWS))
    : DEFAULT_GEOMETRY.maxRows;
  const gap = Math.max(3, Math.round(w * GAP_RATIO));
  const compact = w < COMPACT_W;
  // (written only when they change: a new --card-w restyles every card of the widget)
  const key = `${w}|${gap}|${pad}|${width > 0 && width < 560}|${width > 0 && width < TIGHT_PX}`;
  if (applied.get(root) !== key) {
    applied.set(root, key);
    root.style.setProperty("--card-w", `${w}px`);
    root.style.setProperty("--gap", `${gap}px`);
    root.style.setProperty("--pad", `${pad}px`);
    root.classList.toggle("sp-small", w < SMALL_W && !compact);
    root.classList.toggle("sp-compact", compact);
    // the toolbar goes compact too on a narrow widget
    root.classList.toggle("sp-narrow", width > 0 && width < 560);
    // and below TIGHT_PX, only the controls played with (More shows the others)
    root.classList.toggle("sp-tight", width > 0 && width < TIGHT_PX);
  }
  return { w, maxRows: Math.round(maxRows * 20) / 20, compact };
}

/**
 * Keeps the cards of `root` sized to its width and the window's height (ResizeObserver, window
 * resizes) and to the table shown. `on` adds a listener that the widget's cleanup removes;
 * `relayout()` is called when a resize changes the fan (compact faces, the height allowed): the table
 * must be drawn again. Returns {layout(tableau, keep) -> geometry, columns(n), fit(), disconnect()}.
 */
export function createSizer(root, on, relayout) {
  let width = 0; // the root's content width, from the ResizeObserver
  let tableau = Array.from({ length: 7 }, () => ({ down: 0, up: [] }));
  let geometry = null;
  let floor = 0; // the felt's height so far in this game (card heights): it does not shrink
  const measure = () => {
    const g = fit(root, width, tableau);
    g.minRows = floor;
    return g;
  };
  const refit = () => {
    const before = geometry;
    geometry = measure();
    if (relayout && before && (before.compact !== geometry.compact || before.maxRows !== geometry.maxRows)) {
      relayout();
    }
  };
  const ro = typeof ResizeObserver !== "undefined"
    ? new ResizeObserver((entries) => {
      const w = entries[entries.length - 1].contentRect.width;
      if (Math.abs(w - width) >= 1) {
        width = w;
        refit();
      }
    })
    : null;
  if (ro) ro.observe(root);
  on(window, "resize", refit);
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
      floor = Math.max(floor, fanTableau(t, geometry).rows);
      geometry.minRows = floor;
      return geometry;
    },
    /** (Only the number of columns known.) */
    columns(n) {
      if (n !== tableau.length) {
        tableau = Array.from({ length: n }, () => ({ down: 0, up: [] }));
        floor = 0;
        geometry = measure();
      }
    },
    fit: refit,
    disconnect() {
      if (ro) ro.disconnect();
    },
  };
}
