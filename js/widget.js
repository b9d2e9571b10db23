// spiderette: the browser front end of the Jupyter widget (an anywidget ES module).
//
// The front end holds NO game rules. It draws the synced `view` (see docs/widget-protocol.md) and sends
// intents with `model.send(...)`. Whatever it highlights as legal comes from the view: `targets`,
// `can_deal`, `sendable`, `hint`. Python answers every intent with a new view, and every drawing comes
// from the model, so several views of one model stay in step.
//
// The modules: view.js reads the model; cards.js draws cards; layout.js sizes the table; table.js draws
// it; toolbar.js draws what is around it; pointer.js and keyboard.js turn input into intents;
// animation.js moves the cards. This file wires them together for each view of the widget.

import { h } from "./cards.js";
import { flip, moments, snapshot } from "./animation.js";
import { createKeyboard } from "./keyboard.js";
import { createSizer } from "./layout.js";
import { createPointer } from "./pointer.js";
import { buildTable } from "./table.js";
import { createChrome } from "./toolbar.js";
import { readStats } from "./panel.js";
import { readVariants, readView, tableauSignature } from "./view.js";

let instances = 0;

function render({ model, el }) {
  const uid = `sp${++instances}`;
  const ac = new AbortController();
  const on = (target, type, fn, opts) =>
    target.addEventListener(type, fn, { ...(opts || {}), signal: ac.signal });

  const chrome = createChrome(uid);
  const table = h("div", { class: "sp-table" });
  // the felt (it scrolls sideways when too narrow) and the banner drawn over it
  const stage = h("div", { class: "sp-stage" }, table, chrome.bannerSlot);
  const root = h("div", {
    class: "spiderette",
    tabindex: "0",
    role: "group",
    "aria-roledescription": "solitaire",
    "aria-label": "Spiderette solitaire. Arrows move, Enter picks up and drops, Escape cancels; " +
      "U undo, R redo, H hint, D deal, N new game.",
    // JupyterLab: do not run notebook shortcuts (e.g. D,D deletes the cell) for keys typed here.
    "data-lm-suppress-shortcuts": "true",
  }, chrome.toolbar, chrome.stats, chrome.message, chrome.panel, stage, chrome.live);
  el.append(root);

  // What the table shows now: the view and the elements drawn for it (set by redraw only).
  const drawn = { view: null, refs: null, sig: "" };
  const send = (msg) => model.send({ ...msg, version: drawn.view.version });

  const sizer = createSizer(root, on, () => redraw(true));
  const keyboard = createKeyboard({ root, drawn, on, send, newGame: chrome.newGameIntent, say: chrome.say });
  const pointer = createPointer({ root, drawn, on, send, keyboard });
  chrome.bind(on, (action) => {
    keyboard.drop();
    if (typeof action !== "string") send(action);
    else send(action === "new" ? chrome.newGameIntent() : { action });
  });

  // relayout: the same view drawn again for a new size (nothing flies)
  function redraw(relayout = false) {
    const v = readView(model);
    const prev = drawn.view;
    const sig = tableauSignature(v);
    const before = relayout ? null : snapshot(drawn.refs, table);
    pointer.abort();
    if (!prev || prev.version !== v.version) keyboard.drop();
    const keep = !!prev && !(v.last && v.last.kind === "new"); // the same game: the felt keeps its height
    const { frag, refs } = buildTable(v, uid, sizer.layout(v.tableau, keep));
    table.replaceChildren(frag);
    root.dataset.status = v.status;
    chrome.update(v, prev);
    const sameTableau = !!prev && sig === drawn.sig;
    Object.assign(drawn, { view: v, refs, sig });
    keyboard.apply();
    if (before) flip(before, prev, v, refs, table, sameTableau);
    moments(prev, v, refs, stage);
  }

  const onView = () => redraw();
  const onVariants = () => chrome.setVariants(readVariants(model));
  const onFour = () => root.classList.toggle("sp-four", !!model.get("four_colour"));
  const onStats = () => chrome.setStats(readStats(model.get("stats")));
  model.on("change:view", onView);
  model.on("change:variants", onVariants);
  model.on("change:four_colour", onFour);
  model.on("change:stats", onStats);
  onVariants();
  onFour();
  onStats();
  redraw();
  sizer.fit();

  return () => {
    model.off("change:view", onView);
    model.off("change:variants", onVariants);
    model.off("change:four_colour", onFour);
    model.off("change:stats", onStats);
    sizer.disconnect();
    ac.abort();
    pointer.abort();
    root.remove();
  };
}

// anywidget's module format: a default export with render() (a named `render` export is deprecated).
export default { render };
