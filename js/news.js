// The table's status line: Python's message in a box two lines tall whatever it says, so that the felt below
// never moves when a message gets longer or shorter (a felt that jumped up under the pointer as a long
// message gave way to a short one had a drag pick up the card above the one aimed at).
//
// A message longer than two lines is whole in the DOM all along (a screen reader reads all of it; the box
// only hides its end, between two lines: never inside a word or a number), its `title` holds it, and a
// button after it ("More", or "Whole plan" for a hint) opens it whole over the top of the felt (and closes
// it: so do Escape, a press elsewhere on the table and the next message). A hint's plan longer than Python's
// status line (view.hint.reason, when the message quotes only its start) opens the same way.

import { h } from "./cards.js";

/**
 * The status line of one widget view (ids prefixed with `uid`): {el, show(text, tone, view), bind(on, root)}.
 * show: a new message ("" for none) with its tone ("plain", "refusal") and the view it comes with (its hint's
 * plan), or null (a refusal the front end made); bind: the listeners (toggle, Escape, a press elsewhere).
 */
export function createNews(uid) {
  const text = h("span", { class: "sp-message-text" });
  const line = h("div", { class: "sp-message", "data-status": "message" }, text);
  // A hint's plan longer than the status line (Python's message ends in "…"): whole below it, once opened.
  const plan = h("div", { class: "sp-plan", "data-plan": "whole", id: `${uid}-plan`, hidden: true });
  const toggle = h("button", { type: "button", class: "sp-btn sp-plan-toggle", "data-control": "plan",
    "aria-expanded": "false", "aria-controls": `${uid}-news`, hidden: true });
  const box = h("div", { class: "sp-news-box", id: `${uid}-news` }, line, toggle, plan);
  const el = h("div", { class: "sp-news" }, box);
  let open = false;
  let overflows = false; // the message needs more than the two lines
  let planCut = false; // the message quotes the start of the hint's plan only
  let isHint = false;

  function draw() {
    const more = overflows || planCut;
    if (!more) open = false;
    toggle.hidden = !more;
    el.classList.toggle("sp-open", open);
    plan.hidden = !(open && planCut);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    const [label, tip] = isHint
      ? [open ? "Hide the plan" : "Whole plan", "Read the hint's whole plan"]
      : [open ? "Less" : "More", "Read the whole message"];
    if (toggle.textContent !== label) toggle.textContent = label;
    toggle.title = tip;
    line.title = overflows ? text.textContent : "";
  }

  // Does the message need more than its two lines? (Read after layout: a ResizeObserver on the text.)
  function measure() {
    const was = overflows;
    overflows = text.offsetHeight > el.clientHeight + 1;
    if (was !== overflows) draw();
  }
  const ro = typeof ResizeObserver !== "undefined" ? new ResizeObserver(measure) : null;
  if (ro) ro.observe(text);

  function close() {
    if (!open) return;
    const inside = box.contains(document.activeElement) && document.activeElement !== toggle;
    open = false;
    draw();
    if (inside) toggle.focus({ preventScroll: true });
  }

  return {
    el,
    show(message, tone, v) {
      if (text.textContent !== message) {
        text.textContent = message;
        open = false;
      }
      line.dataset.tone = tone;
      const reason = v && v.hint && typeof v.hint.reason === "string" ? v.hint.reason : "";
      isHint = !!reason && message.includes(reason.slice(0, 30));
      planCut = isHint && !message.includes(reason);
      if (plan.textContent !== (planCut ? reason : "")) plan.textContent = planCut ? reason : "";
      draw();
    },
    bind(on, root) {
      on(toggle, "click", () => {
        open = !open;
        draw();
      });
      on(box, "keydown", (e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
      });
      on(root, "pointerdown", (e) => {
        if (open && !box.contains(e.target)) close();
      }, { capture: true });
    },
    destroy() {
      if (ro) ro.disconnect();
    },
  };
}
