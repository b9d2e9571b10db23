// spiderette: the browser front end of the replay viewer (an anywidget ES module).
//
// Python (spiderette.Replay) computes everything: the `view` of the step shown (the same view the game's
// table draws, so buildTable draws it), the `moves` list with each move's notation, cards and hint
// reason, and the `step`. The browser draws them and asks for another step by setting `step` (Python
// checks it). Playing is a timer here: every `delay` seconds, the next step, while `playing` is true.
// See docs/widget-protocol.md.

import { flip, snapshot } from "./animation.js";
import { h } from "./cards.js";
import { keepKeys } from "./keep-keys.js";
import { createSizer, findScroller } from "./layout.js";
import { drawInto } from "./table.js";
import { stat } from "./toolbar.js";
import { int, obj, str, suitsText } from "./values.js";
import { readView, tableauSignature } from "./view.js";
import { uniqueId } from "./ids.js";

const PLAY = "\u25B6\uFE0E Play";
const PAUSE = "\u275A\u275A Pause";
// An analysed game's verdict after each move: its mark in the move list.
const VERDICTS = { winnable: "W", lost: "L", unknown: "?" };
// The jump button: to the turning point, or (its turning point not known) to the last winnable position.
const TURNING = ["\u2691 Turning point", "Go to the turning point"];
const LAST_WINNABLE = ["\u2691 Last winnable", "Go to the last position known winnable"];


function button(name, text, label, keys) {
  return h("button", {
    type: "button", class: "sp-btn", "data-replay": name, "aria-label": label, title: `${label} (${keys})`, text,
  });
}

// One row of the move list: `i` is the step it leads to (0: the start). `entry` is {text, cards?, reason?, hint?}.
function fillRow(row, i, entry) {
  const shown = typeof entry.reason === "string";
  const b = row.firstChild;
  const parts = i === 0
    ? [h("span", { class: "sp-rp-start", text: "The start" })]
    : [
      h("span", { class: "sp-rp-num", text: `${i}.` }),
      h("span", { class: "sp-rp-text", text: str(entry.text) }),
      shown ? h("span", { class: "sp-rp-cards", text: str(entry.cards) }) : null,
      h("span", { class: "sp-rp-reason", text: shown ? entry.reason : "\u2026" }),
      shown && VERDICTS[entry.verdict]
        ? h("span", { class: `sp-rp-verdict sp-rp-verdict-${entry.verdict}`, "data-verdict": entry.verdict,
          title: `${entry.verdict} after this move${entry.odds ? `: ${str(entry.odds)}` : ""} (the solver sees every card)`,
          text: VERDICTS[entry.verdict] })
        : null,
    ];
  b.replaceChildren(...parts.filter(Boolean));
  const verdict = shown && VERDICTS[entry.verdict]
    ? `; ${entry.verdict} after it${entry.odds ? `: ${str(entry.odds)}` : ""}` : "";
  b.setAttribute("aria-label", i === 0 ? "the start"
    : `move ${i}: ${str(entry.text)}${shown ? `, ${str(entry.cards)}; ${entry.reason}` : ""}${verdict}`);
  row.classList.toggle("sp-rp-hidden", i > 0 && !shown);
  b.title = i > 0 && !shown ? "Its cards and reason show once the replay gets there" : "";
  row.classList.toggle("sp-rp-top", Number.isInteger(entry.hint) && entry.hint === 1);
  row.classList.toggle("sp-rp-off", i > 0 && shown && !Number.isInteger(entry.hint));
}

function render({ model, el }) {
  const uid = uniqueId("sprp"); // (unique in the page: ids.js)
  const ac = new AbortController();
  const on = (target, type, fn, opts) => target.addEventListener(type, fn, { ...(opts || {}), signal: ac.signal });

  // ---------------------------------------------------------------- the elements
  const title = h("span", { class: "sp-title" });
  const [statStep, valStep] = stat("step", "Step");
  const [statScore, valScore] = stat("score", "Score");
  const [statMoves, valMoves] = stat("moves", "Moves");
  const [statDeals, valDeals] = stat("deals", "Deals");
  const [statRuns, valRuns] = stat("runs", "Runs");
  const badge = h("span", { class: "sp-rp-status", "data-status": "status" });
  const stats = h("div", { class: "sp-stats" }, title, statStep, statScore, statMoves, statDeals, statRuns, badge);
  const note = h("div", { class: "sp-rp-note", "data-replay": "note" });

  const btn = {
    first: button("first", "|\u25C0\uFE0E", "Go to the start", "Home"),
    back: button("back", "\u25C0\uFE0E", "Step back", "Left arrow"),
    play: button("play", PLAY, "Play", "Space"),
    forward: button("forward", "\u25B6\uFE0E", "Step forward", "Right arrow"),
    last: button("last", "\u25B6\uFE0E|", "Go to the end", "End"),
    turning: button("turning", "\u2691 Turning point", "Go to the turning point", "T"),
  };
  btn.turning.hidden = true;
  btn.play.classList.add("sp-primary", "sp-rp-play");
  const slider = h("input", {
    type: "range", min: "0", max: "0", step: "1", value: "0", class: "sp-rp-slider",
    "data-replay": "slider", "aria-label": "Step",
  });
  const position = h("span", { class: "sp-rp-position", "data-replay": "position", "aria-hidden": "true" });
  const controls = h("div", { class: "sp-bar sp-rp-controls", role: "toolbar", "aria-label": "Replay controls" },
    h("span", { class: "sp-group" }, btn.first, btn.back, btn.play, btn.forward, btn.last, btn.turning),
    h("span", { class: "sp-group sp-rp-scrub" }, slider, position));
  // (two lines, as on the table: a longer message ends in an ellipsis, whole in the tip)
  const messageText = h("span", { class: "sp-message-text" });
  const message = h("div", { class: "sp-message", "data-status": "message" }, messageText);
  const live = h("div", { class: "sp-sr", "aria-live": "polite", "aria-atomic": "true" });

  const table = h("div", { class: "sp-table" });
  const stage = h("div", { class: "sp-rp-stage" }, table);
  const list = h("ol", { class: "sp-rp-moves", "data-replay": "moves", "aria-label": "Moves" });
  const aside = h("div", { class: "sp-rp-list" }, list);
  const body = h("div", { class: "sp-rp-body" }, stage, aside);

  const root = h("div", {
    class: "spiderette spiderette-replay",
    tabindex: "0",
    role: "group",
    "aria-roledescription": "replay",
    "aria-label": "Spiderette replay. Left and Right arrows step, Home and End go to the start and the end, " +
      "Space plays and pauses.",
    "data-replay-step": "0",
  }, stats, note, controls, message, body, live);
  el.append(root);
  keepKeys(root, on); // no key typed in the replay reaches the notebook
  // (the felt within the notebook area's visible height, less what lies above it, as on the game's table)
  const sizer = createSizer(stage, on, () => redraw(), table);

  // ---------------------------------------------------------------- state
  const drawn = { view: null, refs: null, sig: "", step: 0, steps: 0 };
  let rows = []; // rows[i]: the list row of step i (0: the start)
  let timer = null;

  const playing = () => model.get("playing") === true;
  // An analysis without a turning point: [last winnable step, first lost step], or null.
  const lostRange = () => {
    const r = model.get("lost_range");
    return Array.isArray(r) && r.length === 2 && r.every(Number.isInteger) ? r : null;
  };
  // The step the T key and the turning button go to: the turning point, else the last winnable position.
  const jumpTarget = () => {
    const t = model.get("turning");
    if (Number.isInteger(t)) return t;
    const r = lostRange();
    return r ? r[0] : null;
  };
  // The rows of the last winnable position and the first lost one, marked (data-range: winnable | lost).
  function markRange() {
    const r = Number.isInteger(model.get("turning")) ? null : lostRange();
    rows.forEach((row, i) => {
      const mark = r && i === r[0] ? "winnable" : r && i === r[1] ? "lost" : null;
      if (mark) row.dataset.range = mark;
      else delete row.dataset.range;
      row.classList.toggle("sp-rp-range-end", !!mark);
      row.title = mark === "winnable" ? "The last position known winnable (the solver sees every card)"
        : mark === "lost" ? "The first position proven lost (the solver sees every card)" : "";
    });
  }
  const wanted = () => int(model.get("step")); // the step asked for last (Python may still be answering)

  function setStep(n) {
    const target = Math.min(Math.max(0, n | 0), drawn.steps);
    if (target === wanted()) return;
    model.set("step", target);
    model.save_changes();
  }

  function setPlaying(flag) {
    if (flag && drawn.step >= drawn.steps) {
      if (!drawn.steps) return;
      model.set("step", 0); // play again from the start
    }
    model.set("playing", flag);
    model.save_changes();
  }

  // ---------------------------------------------------------------- drawing
  function showList() {
    const moves = Array.isArray(model.get("moves")) ? model.get("moves") : [];
    const n = moves.length;
    while (rows.length > n + 1) rows.pop().remove();
    while (rows.length < n + 1) {
      const i = rows.length;
      const row = h("li", { class: "sp-rp-row", "data-replay-move": String(i) },
        h("button", { type: "button", class: "sp-rp-go", "data-replay-go": String(i), tabindex: "-1" }));
      row.dataset.sig = "";
      rows.push(row);
      list.append(row);
    }
    rows.forEach((row, i) => {
      const entry = (i > 0 && obj(moves[i - 1])) || {};
      const sig = JSON.stringify(entry);
      if (row.dataset.sig !== sig || !row.firstChild.firstChild) {
        row.dataset.sig = sig;
        fillRow(row, i, entry);
      }
    });
    markRange();
    markCurrent();
  }

  // The current row (aria-current="step"), the next one, and the list scrolled to show them.
  function markCurrent() {
    const k = drawn.step;
    rows.forEach((row, i) => {
      const current = i === k;
      if (current) row.setAttribute("aria-current", "step");
      else row.removeAttribute("aria-current");
      row.classList.toggle("sp-rp-current", current);
      row.classList.toggle("sp-rp-next", i === k + 1);
      row.classList.toggle("sp-rp-done", i <= k);
      row.firstChild.tabIndex = current ? 0 : -1;
    });
    const row = rows[k];
    // keyboard focus on a row of the list follows the step
    const focused = document.activeElement;
    if (row && focused && focused !== row.firstChild && list.contains(focused)) row.firstChild.focus({ preventScroll: true });
    keepInView();
  }

  // Scroll the move list (never the page) so that the current row, and the next when there is room, lie in
  // the part of the list the player sees: its box, less what lies below the fold of the notebook area.
  function keepInView() {
    const row = rows[drawn.step];
    if (!row || !list.clientHeight) return;
    const box = list.getBoundingClientRect();
    const sc = findScroller(root);
    const area = sc ? sc.getBoundingClientRect() : { top: 0, bottom: window.innerHeight };
    const top = Math.max(box.top + list.clientTop, area.top, 0);
    const bottom = Math.min(box.top + list.clientTop + list.clientHeight, area.bottom, window.innerHeight);
    const r = row.getBoundingClientRect();
    const next = (rows[drawn.step + 1] || row).getBoundingClientRect();
    const seen = bottom - top >= r.height + 8 ? [top, bottom] : [box.top, box.bottom]; // (too little shows)
    const want = next.bottom - r.top <= seen[1] - seen[0] - 8 ? next.bottom : r.bottom;
    if (r.top < seen[0] + 4) list.scrollTop -= seen[0] + 4 - r.top;
    else if (want > seen[1] - 4) list.scrollTop += Math.min(want - (seen[1] - 4), r.top - (seen[0] + 4));
  }
  // (the list's size changes when the output is resized or first laid out: the current row stays in view)
  const listObserver = typeof ResizeObserver !== "undefined" ? new ResizeObserver(() => keepInView()) : null;
  if (listObserver) listObserver.observe(list);

  function redraw() {
    const v = readView(model);
    const prev = drawn.view;
    const { step, steps } = v;
    const sig = tableauSignature(v);
    const before = snapshot(drawn.refs, table);
    const refs = drawInto(table, drawn.refs, v, uid, sizer.layout(v.tableau));
    // A picture of the stock, not a button: the replay is watched, not played.
    refs.stock.setAttribute("role", "img");
    refs.stock.removeAttribute("title");
    refs.stock.setAttribute("aria-label", `stock: ${v.deals_left} ${v.deals_left === 1 ? "deal" : "deals"} left`);
    const sameTableau = !!prev && sig === drawn.sig;
    Object.assign(drawn, { view: v, refs, sig, step, steps });
    if (before) flip(before, prev, v, refs, table, sameTableau);

    root.dataset.replayStep = String(step);
    root.dataset.replaySteps = String(steps);
    root.dataset.status = v.status;
    title.textContent = `${v.title || v.variant || "Spiderette"} \u00b7 ${suitsText(v.suits)}`;
    valStep.textContent = `${step}/${steps}`;
    valScore.textContent = String(v.score);
    valMoves.textContent = String(v.moves);
    valDeals.textContent = String(v.deals_left);
    valRuns.textContent = `${v.runs}/${v.runs_total}`;
    badge.textContent = v.ending ? v.status.replace("_", " ") : ""; // (a game that has ended: "dead end")
    badge.hidden = !v.ending;
    badge.className = `sp-rp-status sp-rp-${v.status}`;
    if (messageText.textContent !== v.message) {
      messageText.textContent = v.message;
      message.title = v.message;
      live.textContent = v.message;
    }
    slider.max = String(steps);
    slider.value = String(step);
    slider.disabled = steps === 0;
    slider.setAttribute("aria-valuetext", `step ${step} of ${steps}`);
    position.textContent = `${step} / ${steps}`;
    btn.first.disabled = btn.back.disabled = step === 0;
    btn.forward.disabled = btn.last.disabled = step >= steps;
    btn.play.disabled = steps === 0;
    if (rows.length !== steps + 1) showList();
    else markCurrent();
    showPlaying();
  }

  function showPlaying() {
    const p = playing();
    btn.play.textContent = p ? PAUSE : PLAY;
    btn.play.setAttribute("aria-label", p ? "Pause" : "Play");
    btn.play.setAttribute("aria-pressed", p ? "true" : "false");
    root.dataset.playing = p ? "true" : "false";
    schedule();
  }

  // While playing: the next step after `delay` seconds, unless the step changed meanwhile (so several
  // views of one model advance it once).
  function schedule() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!playing() || drawn.step >= drawn.steps) return;
    const from = drawn.step;
    const delay = Number(model.get("delay"));
    const ms = Number.isFinite(delay) ? Math.min(Math.max(delay, 0.05), 10) * 1000 : 600;
    timer = setTimeout(() => {
      timer = null;
      if (playing() && wanted() === from && drawn.step === from) setStep(from + 1);
    }, ms);
  }

  // ---------------------------------------------------------------- input
  on(controls, "click", (e) => {
    const b = e.target.closest("button[data-replay]");
    if (!b || b.disabled) return;
    const k = wanted();
    switch (b.dataset.replay) {
      case "first": setStep(0); break;
      case "back": setStep(k - 1); break;
      case "forward": setStep(k + 1); break;
      case "last": setStep(drawn.steps); break;
      case "play": setPlaying(!playing()); break;
      case "turning": if (jumpTarget() !== null) setStep(jumpTarget()); break;
      default:
    }
  });
  on(slider, "input", () => setStep(Number(slider.value)));
  on(list, "click", (e) => {
    const b = e.target.closest("[data-replay-move]");
    if (b) setStep(Number(b.dataset.replayMove));
  });
  on(root, "keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const inSlider = e.target === slider;
    const onButton = !!e.target.closest("button");
    const k = wanted();
    let done = true;
    if (e.key === "ArrowLeft" && !inSlider) setStep(k - 1);
    else if (e.key === "ArrowRight" && !inSlider) setStep(k + 1);
    else if (e.key === "Home" && !inSlider) setStep(0);
    else if (e.key === "End" && !inSlider) setStep(drawn.steps);
    else if (e.key === " " && !onButton) setPlaying(!playing());
    else if ((e.key === "t" || e.key === "T") && jumpTarget() !== null) setStep(jumpTarget());
    else done = false;
    if (done) {
      e.preventDefault();
      e.stopPropagation();
    }
  });

  const onView = () => redraw();
  const onMoves = () => showList();
  const onTurning = () => {
    const range = lostRange();
    const turning = Number.isInteger(model.get("turning"));
    btn.turning.hidden = jumpTarget() === null;
    const [text, label] = !turning && range ? LAST_WINNABLE : TURNING;
    btn.turning.textContent = text;
    btn.turning.setAttribute("aria-label", label);
    btn.turning.title = `${label} (T)`;
    markRange();
  };
  const onNote = () => {
    note.textContent = str(model.get("note"));
    note.hidden = !note.textContent;
  };
  const onFour = () => root.classList.toggle("sp-four", !!model.get("four_colour"));
  const listeners = [["change:view", onView], ["change:moves", onMoves], ["change:playing", showPlaying],
    ["change:delay", schedule], ["change:note", onNote], ["change:four_colour", onFour],
    ["change:turning", onTurning], ["change:lost_range", onTurning]];
  for (const [name, fn] of listeners) model.on(name, fn);
  onNote();
  onTurning();
  onFour();
  redraw();
  showList();
  sizer.fit();

  return () => {
    if (timer !== null) clearTimeout(timer);
    for (const [name, fn] of listeners) model.off(name, fn);
    sizer.disconnect();
    if (listObserver) listObserver.disconnect();
    ac.abort();
    root.remove();
  };
}

// anywidget's module format: a default export with render().
export default { render };
