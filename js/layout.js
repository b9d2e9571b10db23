// Sizes: the card width that fits the widget (CSS variables --card-w, --gap, --pad), and the fan
// geometry of the columns (offsets between cards, in card heights).

const FAN_UP = 0.27; // offset between face-up cards
const FAN_DOWN = 0.11; // offset after a face-down card
const MIN_UP = 0.19; // compressed offsets: the top strip (rank + suit) stays readable
const MIN_DOWN = 0.05;
const MIN_ROWS = 3.0; // the tableau is at least this many card heights tall
const CARD_RATIO = 1.4; // height / width
const MAX_CARD_W = 100;
const MIN_CARD_W = 34;
const GAP_RATIO = 0.14; // gap between columns / card width
const ROOT_PAD = 8; // px, as in widget.css (.spiderette padding)

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

/**
 * The fan of every column of a (normalised) tableau: `fans[i]` = {fd, fu} (offsets after a face-down
 * and after a face-up card), and `rows`, the height of the tableau in card heights.
 */
export function fanTableau(tableau) {
  const maxRows = tableau.length > 7 ? 4.6 : 4.2;
  let rows = MIN_ROWS;
  const fans = tableau.map((c) => {
    const f = fan(c.down, c.up.length, maxRows);
    rows = Math.max(rows, f.rows + 0.08);
    return f;
  });
  return { fans, rows };
}

// The card size for `cols` columns in `width` px (the root's content width; 0: measure the root).
function fit(root, width, cols) {
  if (!(width > 0)) width = (root.clientWidth || 0) - 2 * ROOT_PAD;
  const n = Math.max(1, cols);
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

/**
 * Keeps the cards of `root` sized to its width (ResizeObserver, window resizes) and to the number of
 * columns. `on` adds a listener that the widget's cleanup removes. Returns {columns(n), fit(), disconnect()}.
 */
export function createSizer(root, on) {
  let width = 0; // the root's content width, from the ResizeObserver
  let cols = 7;
  const ro = typeof ResizeObserver !== "undefined"
    ? new ResizeObserver((entries) => {
      const w = entries[entries.length - 1].contentRect.width;
      if (Math.abs(w - width) >= 1) {
        width = w;
        fit(root, width, cols);
      }
    })
    : null;
  if (ro) ro.observe(root);
  on(window, "resize", () => fit(root, width, cols));
  return {
    columns(n) {
      if (n !== cols) {
        cols = n;
        fit(root, width, cols);
      }
    },
    fit: () => fit(root, width, cols),
    disconnect() {
      if (ro) ro.disconnect();
    },
  };
}
