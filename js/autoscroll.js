// Drag auto-scroll: while cards are dragged (the root has .sp-is-dragging) near an edge of a felt that
// scrolls (sideways when it is too narrow, down when it is taller than the notebook area allows), the felt
// scrolls that way, faster nearer the edge, for as long as the pointer stays there. Each step moves the drag
// on where the pointer is (a pointermove at the same place: pointer.js keeps the dragged cards under it).

const EDGE = 44; // px inside the felt's edge where scrolling starts
const MAX_STEP = 16; // px per frame at the edge and beyond

const speed = (d) => (d >= EDGE ? 0 : Math.ceil(MAX_STEP * Math.min(1, (EDGE - d) / EDGE)));
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
    const dx = range.x > 0 ? speed(r.right - x) - speed(x - r.left) : 0;
    const dy = range.y > 0 ? speed(r.bottom - y) - speed(y - r.top) : 0;
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
