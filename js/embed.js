// spiderette: the widgets of a notebook drawn on a page of the documentation site, with no kernel and no
// other site. The site's build (docs/hooks/widgets.py) puts this file, the package's own front end
// (widget.js, replay.js and their CSS, as `npm run build` made them) beside it in assets/spiderette/, and
// loads it on every notebook page in place of the widget manager nbconvert would fetch from a CDN.
//
// Each output of a widget (<script type="application/vnd.jupyter.widget-view+json">) is drawn from the
// page's widget state (<script type="application/vnd.jupyter.widget-state+json">), the state the notebook
// ended in when the site's build ran it:
// - spiderette's Widget and Replay with the bundled front end, on a model that answers `get` from that
//   state and sends nothing (there is no Python here): a picture of the table as the notebook left it, with
//   a line that says so (what was still under way when the notebook was saved, such as the Winnable?
//   search, is left out: it would never end here);
// - another anywidget with the module its state carries;
// - the progress bars of tqdm (a box of text and a bar) as plain HTML;
// - anything else as a line that names it.

const HERE = new URL(".", import.meta.url);
/** The bundled front end of each spiderette widget, by its anywidget id. */
const BUNDLED = {
  "spiderette.notebook.widget.Widget": "widget",
  "spiderette.notebook.replay.Replay": "replay",
};
/** What the line under a picture of a spiderette widget says. */
export const CAPTIONS = {
  widget: "A picture of the table as this notebook left it: run the notebook in Jupyter to play.",
  replay: "A picture of the replay as this notebook left it: run the notebook in Jupyter to step through it.",
};

/** A model that answers from a saved state and never reaches Python (anywidget's model, read only). */
export function savedModel(state) {
  const values = { ...state };
  return {
    get: (name) => values[name],
    set() {}, // nothing changes a picture
    save_changes() {},
    on() {},
    off() {},
    send() {
      throw new Error("no kernel: this is a page of the documentation site");
    },
  };
}

/**
 * The table's view as a picture: what was still under way when the notebook was saved (the Winnable? search,
 * Think, the post-mortem, the game clock) would never end here, so it is left out rather than shown running.
 */
export function still(view) {
  if (!view || typeof view !== "object") return view;
  const v = { ...view, thinking: false };
  if (v.winnable && v.winnable.state === "thinking") v.winnable = null;
  if (v.analysis && v.analysis.state === "running") v.analysis = null;
  if (v.clock && typeof v.clock === "object") v.clock = { ...v.clock, running: false };
  return v;
}

const css = new Set();
function addCss(href) {
  if (css.has(href)) return;
  css.add(href);
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

function note(text) {
  const p = document.createElement("p");
  p.className = "sp-embed-note";
  p.textContent = text;
  return p;
}

async function drawAnywidget(state, host) {
  const name = BUNDLED[state._anywidget_id];
  let module;
  if (name) {
    addCss(new URL(`${name}.css`, HERE).href);
    module = await import(new URL(`${name}.js`, HERE).href);
  } else {
    if (typeof state._esm !== "string" || !state._esm) throw new Error("an anywidget with no module");
    if (typeof state._css === "string" && state._css) {
      const style = document.createElement("style");
      style.textContent = state._css;
      document.head.append(style);
    }
    const url = URL.createObjectURL(new Blob([state._esm], { type: "text/javascript" }));
    try {
      module = await import(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  const widget = module.default && module.default.render ? module.default : module;
  const el = document.createElement("div");
  host.append(el);
  const shown = name === "widget" ? { ...state, view: still(state.view) } : state;
  await widget.render({ model: savedModel(shown), el });
  if (name) {
    el.inert = true; // (a picture: no click or key reaches it)
    host.dataset.embed = name;
    host.append(note(CAPTIONS[name]));
  }
}

// tqdm's progress bar in a notebook: an HBox of an HTML label, a progress bar and an HTML count.
function drawControl(models, id, host, depth = 0) {
  const model = models[id];
  if (!model || depth > 20) return;
  const s = model.state;
  const kind = model.model_name;
  if (kind === "HBoxModel" || kind === "VBoxModel") {
    const box = document.createElement("div");
    box.className = "sp-embed-box";
    box.style.display = "flex";
    box.style.flexDirection = kind === "HBoxModel" ? "row" : "column";
    box.style.gap = "0.5em";
    box.style.alignItems = "center";
    for (const child of s.children || []) drawControl(models, String(child).replace(/^IPY_MODEL_/, ""), box, depth + 1);
    host.append(box);
  } else if (kind === "HTMLModel" || kind === "LabelModel") {
    const span = document.createElement("span");
    if (kind === "HTMLModel") span.innerHTML = String(s.value ?? "");
    else span.textContent = String(s.value ?? "");
    host.append(span);
  } else if (kind === "FloatProgressModel" || kind === "IntProgressModel") {
    const bar = document.createElement("progress");
    bar.max = Number(s.max ?? 100) - Number(s.min ?? 0);
    bar.value = Number(s.value ?? 0) - Number(s.min ?? 0);
    host.append(bar);
  } else {
    host.append(note(`(a ${kind.replace(/Model$/, "")} widget: shown when the notebook runs in Jupyter)`));
  }
}

async function drawAll() {
  const saved = document.querySelector('script[type="application/vnd.jupyter.widget-state+json"]');
  const models = saved ? JSON.parse(saved.textContent).state || {} : {};
  for (const output of document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')) {
    const host = document.createElement("div");
    host.className = "sp-embed";
    output.after(host);
    let id = "";
    try {
      id = JSON.parse(output.textContent).model_id;
      const model = models[id];
      if (!model) throw new Error("its state was not saved");
      host.dataset.model = model.model_name;
      if (model.model_module === "anywidget") await drawAnywidget(model.state, host);
      else drawControl(models, id, host);
      host.dataset.drawn = "true";
    } catch (e) {
      host.dataset.drawn = "false";
      host.append(note(`(a widget this page cannot draw: ${e && e.message ? e.message : e})`));
    }
  }
  document.documentElement.dataset.spEmbed = "done";
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawAll);
  else drawAll();
}
