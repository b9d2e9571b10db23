// Drag auto-scroll: while cards are dragged (the root has .sp-is-dragging) near an edge of a felt that
// scrolls (sideways when it is too narrow, down when it is taller than the notebook area allows), the felt
// scrolls that way, faster nearer the edge (a zone that scales with the felt: edgeZone), for as long as the
// pointer stays there. Each step moves the drag on where the pointer is (a pointermove at the same place:
// pointer.js keeps the dragged cards under it).

// The zone where scrolling starts, inside each edge: a fraction of the felt's size along that axis, at most
// EDGE px (a 44 px zone on a felt 116 px across scrolled it under nearly every drop).
const EDGE = 44; // px, at most
const EDGE_FRACTION = 0.12; // of the felt's height (top and bottom) or width (left and right)
const EDGE_MIN = 6; // px, at least
const MAX_STEP = 16; // px per frame at the edge and beyond

/** The zone's depth (px) for a felt `size` px across. */
export const edgeZone = (size) => Math.max(EDGE_MIN, Math.min(EDGE, EDGE_FRACTION * size));

// px per frame at `d` px inside an edge whose zone is `zone` px deep
const speed = (d, zone) => (d >= zone ? 0 : Math.ceil(MAX_STEP * Math.min(1, (zone - d) / zone)));
const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

/** Auto-scroll `felt` during a drag on `root`; `on` adds listeners that the widget's cleanup removes. */
export function createAutoScroll({ root, felt, on }) {
  let last = null; // the last pointer position of the press: {pointerId, pointerType, clientX, clientY}
  let range = null; // the felt's scroll range when the press began (the dragged cards must not widen it)
  let frame = 0;

  function stop() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
  }

  function step() {
    frame = 0;
    if (!last || !range || !root.classList.contains("sp-is-dragging")) return;
    const r = felt.getBoundingClientRect();
    const { clientX: x, clientY: y } = last;
    const zx = edgeZone(r.width);
    const zy = edgeZone(r.height);
    const dx = range.x > 0 ? speed(r.right - x, zx) - speed(x - r.left, zx) : 0;
    const dy = range.y > 0 ? speed(r.bottom - y, zy) - speed(y - r.top, zy) : 0;
    const sx = clamp(felt.scrollLeft + dx, 0, range.x);
    const sy = clamp(felt.scrollTop + dy, 0, range.y);
    if (Math.abs(sx - felt.scrollLeft) < 0.5 && Math.abs(sy - felt.scrollTop) < 0.5) return;
    felt.scrollLeft = sx;
    felt.scrollTop = sy;
    root.dispatchEvent(new PointerEvent("pointermove", { ...last, bubbles: true, cancelable: true }));
    frame = requestAnimationFrame(step);
  }

  on(root, "pointerdown", (e) => {
    stop();
    last = null;
    range = { x: felt.scrollWidth - felt.clientWidth, y: felt.scrollHeight - felt.clientHeight };
  });
  on(root, "pointermove", (e) => {
    if (!e.isTrusted || !range) return; // (its own steps)
    last = { pointerId: e.pointerId, pointerType: e.pointerType, clientX: e.clientX, clientY: e.clientY };
    if (!frame && root.classList.contains("sp-is-dragging")) frame = requestAnimationFrame(step);
  });
  const end = () => {
    stop();
    last = null;
    range = null;
  };
  on(root, "pointerup", end);
  on(root, "pointercancel", end);
  on(root, "lostpointercapture", end);
  return { stop: end };
}
