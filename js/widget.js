// spiderette: the browser front end of the Jupyter widget (an anywidget ES module).
//
// The front end holds NO game rules. It draws the synced `view` (see docs/widget-protocol.md) and sends
// intents with `model.send(...)`. Whatever it highlights as legal comes from the view: `targets`,
// `can_deal`, `sendable`, `hint`. Python answers every intent with a new view, and every drawing comes
// from the model, so several views of one model stay in step. To answer a click at once, the table
// draws what the view already tells (predict.js) until Python's answer confirms or corrects it.
//
// The modules: view.js reads the model; cards.js draws cards; layout.js sizes the table; table.js draws
// it; toolbar.js draws what is around it; pointer.js and keyboard.js turn input into intents;
// predict.js foresees their outcome; queue.js keeps the intents until Python answers them (a reducer:
// what to send, what to draw); animation.js moves the cards. This file wires them together for each
// view of the widget.

import { h } from "./cards.js";
import { flip, flyOn, land, moments, snapshot } from "./animation.js";
import { createKeyboard, tableUses } from "./keyboard.js";
import { keepKeys } from "./keep-keys.js";
import { createAutoScroll } from "./autoscroll.js";
import { createSizer } from "./layout.js";
import { createPointer } from "./pointer.js";
import { agrees } from "./predict.js";
import { initial, step } from "./queue.js";
import { drawInto } from "./table.js";
import { createChrome } from "./toolbar.js";
import { readStats } from "./panel.js";
import { readVariants, readView, tableauSignature } from "./view.js";
import { uniqueId } from "./ids.js";

/** Intents that give up the game on the table: asked first ("Abandon this game?", "Give up this game?") while
 * it is in progress; Give up (resign) always. */
const GIVE_UP = ["new", "restart", "resume", "resign"];
// An intent with no answer from Python for this long: the table says the kernel does not answer (stopped,
// or busy with a long cell), shows Python's last view, stops its clock and refuses input visibly until a
// view comes again (the intents made meanwhile still wait their turn: a busy kernel answers them later).
const SILENT_MS = 4000;
const SILENT_TEXT = "The kernel is not answering: if it stopped or restarted, run the cell again" +
  " (if it is busy, the table comes back when it is free).";

/** A game in progress: something was played on it (there is something to undo or redo), and it is not won. */
const inProgress = (v) => !!v && v.status !== "won" && (v.can_undo || v.can_redo);

// The intents' ids: this page's mark (another page may show the same model), the view, a count.
const PAGE = Math.random().toString(36).slice(2, 8);

function render({ model, el }) {
  const uid = uniqueId("sp"); // (unique in the page: ids.js)
  const ac = new AbortController();
  const on = (target, type, fn, opts) =>
    target.addEventListener(type, fn, { ...(opts || {}), signal: ac.signal });

  const chrome = createChrome(uid);
  const table = h("div", { class: "sp-table" });
  // the felt (it scrolls sideways when too narrow, and down when taller than the notebook area allows),
  // and what is drawn over it: the question before a game is given up, the Statistics panel, the banners
  const stage = h("div", { class: "sp-stage" }, chrome.question, chrome.panel, table, chrome.bannerSlot);
  const root = h("div", {
    class: "spiderette",
    tabindex: "0",
    role: "group",
    "aria-roledescription": "solitaire",
    "aria-label": "Spiderette solitaire. Arrows move, Enter picks up and drops, Escape cancels; " +
      "U undo, R redo, H hint, D deal, N new game, T goes to the toolbar (Shift+Tab comes back).",
  }, chrome.toolbar, chrome.stats, chrome.message, stage, chrome.live);
  el.append(root);
  // no key typed in the widget reaches the notebook (Hint, then D D: no cell deleted), but a combination with
  // Ctrl, Meta or Alt that the table does not use (Ctrl+B, Ctrl+S)
  keepKeys(root, on, tableUses);

  // What the table shows now: Python's view or a prediction, and the elements drawn for it.
  const drawn = { view: null, refs: null, sig: "" };
  let shown = null; // Python's last view drawn (the chrome shows it)
  // Every intent not answered yet, in order, with Python's last view (`queue.confirmed`: it may wait behind
  // a prediction; the predictions start from it): the queue (queue.js; docs: "No action is lost: the queue").
  let queue = null;

  // Carry `event` to the queue and do what it says: post, draw, say. A message that cannot go (the
  // kernel is gone: said on the felt) empties the queue, and nothing after it is done.
  function dispatch(event) {
    const { state, effects } = step(queue, event);
    queue = state;
    for (const e of effects) {
      if (e.type === "post") {
        if (!post(e.msg)) {
          queue = step(queue, { type: "gone" }).state;
          break;
        }
      } else if (e.type === "show") show(e.view, e.guess);
      else if (e.type === "chrome") showChrome(e.view);
      else if (e.type === "chain") drawChain(e.table, e.known);
      else if (e.type === "refuse") chrome.refuse(e.text);
    }
    root.dataset.pending = String(queue.unanswered.length);
    if (queue.unanswered.length) expectAnswer();
  }

  // Keep an intent (the pointer, the keyboard and the buttons all come here), send it if no other is
  // waiting for Python's answer, and draw the outcome of every intent not answered at once, as far as
  // the views tell it. An intent that names columns is kept in cards (inCards): made on a table drawn
  // behind Python, it still means the cards the player saw.
  function act(intent) {
    if (root.classList.contains("sp-silent")) chrome.refuse(SILENT_TEXT); // (nothing is predicted meanwhile)
    dispatch({ type: "intent", intent, drawn: drawn.view });
  }

  // Draw the chain's table; the chrome follows it for what a prediction knows (moves, deals left, runs,
  // Undo and Redo), Python's last view for the rest (the score, the message). Behind the intents made,
  // Undo and Redo stay offered (Python says when there is nothing to take back): no press is lost.
  function drawChain(t, known) {
    if (t !== drawn.view) drawTable(t);
    if (!t.predicted && known) return;
    chrome.update({ ...shown, moves: t.moves, deals_left: t.deals_left, runs: t.runs,
      can_undo: t.can_undo || !known, can_redo: t.can_redo || !known }, shown);
  }

  const sizer = createSizer(root, on, () => drawn.view && drawTable(drawn.view, true), stage);
  const keyboard = createKeyboard({ root, drawn, on, send: act, newGame: () => giveUp("new"), say: chrome.say });
  const pointer = createPointer({ root, drawn, on, send: act, keyboard });
  const autoScroll = createAutoScroll({ root, felt: table, on });
  // While a pointer is pressed on the felt, what lies above it keeps its height (a Think or a Winnable?
  // verdict that comes meanwhile may make the toolbar or the stats bar wrap): the felt never moves under a
  // pressed pointer. (The status line is always two lines tall: news.js.)
  const above = [chrome.toolbar, chrome.stats];
  on(root, "pointerdown", (e) => {
    if (!stage.contains(e.target)) return;
    for (const a of above) a.style.height = `${a.offsetHeight}px`;
    root.classList.add("sp-pinned");
  });
  const unpin = () => {
    if (!root.classList.contains("sp-pinned")) return;
    root.classList.remove("sp-pinned");
    for (const a of above) a.style.height = "";
  };
  on(document, "pointerup", unpin, { capture: true });
  on(document, "pointercancel", unpin, { capture: true });
  on(window, "blur", unpin); // (a release outside the window may never come)

  // New game, Restart, Resume and Give up give up the game on the table: while it is in progress, ask first
  // (Give up always: its button shows only on a game played, and it counts the game lost).
  function perform(action) {
    act(action === "new" ? chrome.newGameIntent() : { action });
  }
  function giveUp(action) {
    keyboard.drop();
    const problem = action === "new" ? chrome.dealProblem() : "";
    if (problem) {
      chrome.refuse(problem); // a bad deal number: refused before anything is asked
      return;
    }
    if (action === "resign" || inProgress(queue.confirmed)) chrome.ask(action);
    else perform(action);
  }
  function closeQuestion() {
    const inside = chrome.question.contains(document.activeElement);
    const action = chrome.closeQuestion();
    if (inside) root.focus({ preventScroll: true });
    return action;
  }
  on(chrome.question, "click", (e) => {
    const b = e.target.closest("[data-confirm-action]");
    if (!b) return;
    const action = closeQuestion();
    if (action && b.dataset.confirmAction === "confirm") perform(action);
  });
  on(root, "keydown", (e) => {
    if (e.key === "Escape" && chrome.asking()) {
      e.preventDefault();
      e.stopPropagation();
      closeQuestion();
    }
  });
  chrome.bind(on, (action) => {
    keyboard.drop();
    if (typeof action !== "string") act(action);
    else if (GIVE_UP.includes(action)) giveUp(action);
    else act({ action });
  });

  // Draw the table for `v` (Python's view or a prediction); the cards fly from where they were.
  // relayout: the same view drawn again for a new size (nothing flies).
  function drawTable(v, relayout = false) {
    const prev = drawn.view;
    const before = relayout ? null : snapshot(drawn.refs, table);
    const keep = !!prev && !(v.last && v.last.kind === "new"); // the same game: the felt keeps its height
    // (what looks the same stays: the browser restyles and lays out only what changed)
    const refs = drawInto(table, drawn.refs, v, uid, sizer.layout(v.tableau, keep));
    const sig = tableauSignature(v);
    const sameTableau = !!prev && sig === drawn.sig;
    Object.assign(drawn, { view: v, refs, sig });
    keyboard.rebase(); // a pick-up or a drag goes on if its cards are still there (else it is dropped)
    keyboard.apply();
    if (before) flip(before, prev, v, refs, table, sameTableau);
    pointer.rebase();
    moments(prev, v, refs, stage);
  }

  // Show Python's view `v`: the table and everything around it. `guess`: the prediction it answers (the
  // backs it showed that are now face up get the class sp-turned; cards still flying to the place the
  // prediction gave them fly on, where Python's view has them there too).
  function show(v, guess) {
    const flights = guess && agrees(guess, v) ? land(table) : [];
    drawTable(v);
    flyOn(flights, drawn.refs);
    showChrome(v);
    root.dataset.pending = String(queue.unanswered.length);
    if (guess && guess.columns === v.columns) {
      guess.tableau.forEach((c, i) => {
        const up = v.tableau[i];
        drawn.refs.cards[i].forEach((e, j) => {
          const wasBack = j < c.down || j >= c.down + c.up.length;
          if (wasBack && j >= up.down && j < c.total) e.classList.add("sp-turned");
        });
      });
    }
  }

  // Python's view `v` around the table: the stats bar, the status line, the buttons.
  function showChrome(v) {
    root.dataset.status = v.status;
    chrome.update(v, shown);
    shown = v;
    if (chrome.asking() && (!inProgress(v) || (v.last && v.last.kind === "new"))) closeQuestion();
  }

  // Send a message to Python; false (and the felt says so) when it cannot go: the kernel is gone.
  function post(msg) {
    try {
      model.send(msg);
      return true;
    } catch (e) {
      silence();
      return false;
    }
  }

  // Every intent is answered with a view. None for SILENT_MS: say so on the felt, stop the clock.
  let silentTimer = null;
  const silentNote = h("div", { class: "sp-silent-note", role: "alert", "data-status": "silent" });
  function expectAnswer() {
    if (silentTimer === null) silentTimer = setTimeout(silence, SILENT_MS);
  }
  function silence() {
    silentTimer = null;
    root.classList.add("sp-silent");
    silentNote.textContent = SILENT_TEXT;
    stage.append(silentNote);
    queue = step(queue, { type: "silent", silent: true }).state; // (nothing is predicted meanwhile)
    if (drawn.view !== queue.confirmed) show(queue.confirmed); // the predictions are taken back
    chrome.stopClock();
    chrome.refuse(SILENT_TEXT);
  }
  function answered() {
    if (silentTimer !== null) clearTimeout(silentTimer);
    silentTimer = null;
    if (root.classList.contains("sp-silent")) {
      queue = step(queue, { type: "silent", silent: false }).state;
      root.classList.remove("sp-silent");
      silentNote.remove();
    }
  }

  // A hidden page (another tab, a minimised window): the game clock stops until the next action.
  on(document, "visibilitychange", () => {
    const v = queue && queue.confirmed;
    if (document.visibilityState === "hidden" && v && v.clock && v.clock.running) {
      act({ action: "away" }); // (in turn, like every intent: a table it does not change)
    }
  });

  const onView = () => {
    answered(); // Python answers: the kernel is alive
    dispatch({ type: "view", view: readView(model) });
  };
  const onVariants = () => chrome.setVariants(readVariants(model));
  const onFour = () => {
    root.classList.toggle("sp-four", !!model.get("four_colour"));
    chrome.setFour(model.get("four_colour"));
  };
  const onStats = () => chrome.setStats(readStats(model.get("stats")));
  const listeners = [["change:view", onView], ["change:variants", onVariants], ["change:four_colour", onFour],
    ["change:stats", onStats]];
  for (const [name, fn] of listeners) model.on(name, fn);
  onVariants();
  onFour();
  onStats();
  queue = initial(readView(model, false), `${PAGE}-${uid}`);
  show(queue.confirmed);
  sizer.fit();

  return () => {
    for (const [name, fn] of listeners) model.off(name, fn);
    if (silentTimer !== null) clearTimeout(silentTimer);
    chrome.destroy();
    sizer.disconnect();
    ac.abort();
    pointer.abort();
    autoScroll.stop();
    root.remove();
  };
}

// anywidget's module format: a default export with render() (a named `render` export is deprecated).
export default { render };
