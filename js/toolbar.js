// Everything around the table: the toolbar (buttons, the variant, suits and deal number choosers), the
// stats bar (with the deal number and the game timer), the status line, the question asked before a
// game in progress is given up, the Statistics panel, the won / lost / dead-end banner and the
// screen-reader live region.

import { h } from "./cards.js";
import { createNews } from "./news.js";
import { createStatsPanel } from "./panel.js";
import { suitsText } from "./values.js";

const THINK = ["think", "Think", "Look ahead without peeking (slow)"];
const STOP_THINKING = ["stop_thinking", "Stop thinking", "Stop looking ahead"];
// "Where did it go wrong?": the banner's button and the stats bar's say the same
const ANALYSE = ["Where did it go wrong?",
  "Find the move that lost a winnable game (the solver looks at every card, in the background)"];
// The post-mortem's undo (action undo_to_turning): to the turning point, or when that is not known, to the
// last position known winnable (view.analysis.to).
const UNDO_TO_TURNING = ["Undo to the turning point",
  "Take back the moves since the move that lost a winnable game (found by Where did it go wrong?)"];
const UNDO_TO_LAST_WINNABLE = ["Undo to the last winnable position",
  "Take back the moves since the last position known winnable (found by Where did it go wrong?: the move that" +
  " lost the game is one of the next few)"];

/** The words of the Winnable? stat for a verdict (view.winnable). */
export function verdictText(w) {
  if (!w) return "";
  if (w.state === "thinking") return "checking\u2026";
  if (w.state === "win" && w.moves === null) return "winnable (proven; no line kept)";
  if (w.state === "win" && !w.moves) return "won";
  if (w.state === "win") return `winnable (line of ${w.moves} move${w.moves === 1 ? "" : "s"})`;
  if (w.state === "loss") return "not winnable from here";
  // e.g. "probably lost: 3 of 40 like it (…) proved winnable with 10× the search", and while a longer search goes on, ", searching on…"
  return `${w.odds || "unknown"}${w.searching ? ", searching on\u2026" : ""}`;
}


/** The game timer as shown: "0:07", "12:34", "1:02:03" (as spiderette.clock.clock_text). */
export function clockText(seconds) {
  let s = Math.floor(Math.max(0, seconds));
  const hours = Math.floor(s / 3600);
  s -= 3600 * hours;
  const m = Math.floor(s / 60);
  s -= 60 * m;
  const two = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

// One ticker for every timer on the page (so that two views of a widget show the same second): the
// time Python sent, plus the time since it came while the clock runs. Python owns the time.
const timers = new Set(); // {el, clock}
let tickTimer = null;
const secondsOf = (c, now) => Math.min(c.until ?? Infinity,
  c.elapsed + (c.running ? Math.max(0, now - c.at) / 1000 : 0));
function tick() {
  if (tickTimer !== null) clearTimeout(tickTimer);
  tickTimer = null;
  const now = performance.now();
  let next = Infinity;
  for (const t of timers) {
    if (!t.clock) continue;
    const secs = secondsOf(t.clock, now);
    const text = clockText(secs);
    if (t.el.textContent !== text) t.el.textContent = text;
    if (t.clock.running && secs < (t.clock.until ?? Infinity)) next = Math.min(next, 1000 * (Math.floor(secs) + 1 - secs));
  }
  if (next < Infinity) tickTimer = setTimeout(tick, next + 15);
}

/** The largest deal number (Python's spiderette.deals.MAX_SEED − 1). */
const MAX_DEAL = "18446744073709551615";

/** The question asked before giving up a game in progress, for each action: [question, the button that does it]. */
const QUESTION = {
  new: ["Abandon this game?", "New game"],
  restart: ["Abandon this game?", "Restart"],
  resume: ["Abandon this game?", "Resume the saved game"],
  resign: ["Give up this game? A played game counts as lost.", "Give up"],
};

function button(action, label, title, extra) {
  return h("button", { type: "button", class: `sp-btn${extra ? " " + extra : ""}`, "data-action": action, title, text: label });
}

/** A label and its value in the status bar: [the element, the value's span]. (The replay's too.) */
export function stat(key, label) {
  const value = h("span", { class: "sp-stat-value", "data-status": key });
  return [h("span", { class: "sp-stat" }, h("span", { class: "sp-stat-label", text: label }), value), value];
}

// Replace the options of `select` by `options` ([value, text]); keep its value when still offered.
function setOptions(select, options) {
  const keep = select.value;
  select.replaceChildren(...options.map(([value, text]) => h("option", { value, text })));
  if (options.some(([value]) => value === keep)) select.value = keep;
}

const offers = (select, value) => [...select.options].some((o) => o.value === value);

/** The Resume button's tip for view.resume ({variant, suits, seed, moves, score}). */
function resumeTip(r, variants) {
  const v = variants.find((x) => x.name === r.variant);
  const deal = r.seed === null ? "" : `, deal ${r.seed}`;
  return `Resume the saved game: ${v ? v.title : r.variant} \u00b7 ${suitsText(r.suits)}${deal}, ` +
    `${r.moves} move${r.moves === 1 ? "" : "s"}, score ${r.score}`;
}

/**
 * The chrome of one widget view. Its elements go into the root in this order: toolbar, stats, message (the
 * status line, and a hint's whole plan),
 * question, panel, bannerSlot, (the table), live. Then:
 * - setVariants(list): the variants Python offers (readVariants); update(view, prev): show a new view
 *   (Python's views only: a prediction changes the table alone);
 * - setStats(rows): the Statistics panel's rows (the `stats` trait);
 * - newGameIntent(): the "new" intent for the chosen variant, suits and deal number (the one place it is
 *   built);
 * - ask(action): ask "Abandon this game?" before `action` (new, restart, resume; "Give up this game?" before
 *   resign); closeQuestion() closes
 *   it and returns the action; asking(): the action asked about, or null (the widget answers the buttons);
 * - say(text): tell a screen reader; bind(on, act): call act(action) for a button press, and
 *   act({action: "winnable", on}) when the Winnable? box changes; destroy(): stop the timer.
 */
export function createChrome(uid = "sp") {
  const selVariant = h("select", { "data-control": "variant", "aria-label": "Variant for a new game", title: "Variant for a new game" });
  const selSuits = h("select", { "data-control": "suits", "aria-label": "Suits for a new game", title: "Suits for a new game" });
  const btnUndo = button("undo", "Undo", "Undo (Ctrl+Z or U)");
  const btnRedo = button("redo", "Redo", "Redo (Ctrl+Y or R)");
  const [statScore, valScore] = stat("score", "Score");
  const [statMoves, valMoves] = stat("moves", "Moves");
  const [statDeals, valDeals] = stat("deals", "Deals");
  const [statRuns, valRuns] = stat("runs", "Runs");
  const [statTime, valTime] = stat("time", "Time");
  const timer = { el: valTime, clock: null };
  timers.add(timer);
  const dealNo = h("span", { class: "sp-deal", "data-status": "deal" });
  const inpDeal = h("input", {
    type: "text", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", spellcheck: "false",
    class: "sp-deal-input", "data-control": "deal", size: "9", placeholder: "Deal no.",
    "aria-label": "Deal number for a new game (empty: a random deal)",
    title: "Deal number for a new game: the same number deals the same cards (empty: a random deal)",
  });
  const [statWinnable, valWinnable] = stat("winnable", "Winnable?");
  statWinnable.hidden = true;
  const btnThink = button(...THINK);
  const chkWinnable = h("input", { type: "checkbox", "data-control": "winnable",
    "aria-label": "Winnable? (spoiler: the solver looks at the hidden cards)" });
  const lblWinnable = h("label", { class: "sp-check", title: "Check in the background whether the game can still be won (a spoiler)" },
    chkWinnable, h("span", { text: "Winnable?" }));
  const chkFour = h("input", { type: "checkbox", "data-control": "four_colour",
    "aria-label": "Four-colour deck (clubs green, diamonds blue)" });
  const lblFour = h("label", { class: "sp-check", title: "A four-colour deck: clubs green, diamonds blue" },
    chkFour, h("span", { text: "4 colours" }));
  const btnUndoToWinnable = button("undo_to_winnable", "Undo to the last winnable position",
    "Take back the moves since the last position proven winnable");
  btnUndoToWinnable.hidden = true;
  btnUndoToWinnable.disabled = true;
  const btnUndoToTurning = button("undo_to_turning", ...UNDO_TO_TURNING);
  btnUndoToTurning.hidden = true;
  // "Where did it go wrong?" within reach of a game going nowhere (Python's view.offer_analysis says when)
  const btnAnalyse = button("analyse", ...ANALYSE);
  btnAnalyse.hidden = true;
  // Give up (in the stats bar, beside the game it gives up): the game counts as lost, the post-mortem is offered
  const btnResign = button("resign", "Give up", "Give up this game (a played game counts as lost, unless the table keeps no records), then see where it went wrong");
  const title = h("span", { class: "sp-title" });
  const btnResume = button("resume", "Resume", "Resume the saved game");
  btnResume.hidden = true;
  const panel = createStatsPanel(`${uid}-stats`);
  const btnStats = button("stats", "Statistics", "Statistics of the games played (wins, streaks, best scores)");
  btnStats.setAttribute("aria-controls", `${uid}-stats`);
  btnStats.setAttribute("aria-expanded", "false");

  // On a very narrow widget (.sp-tight) the controls played with stay in view and the others fold away
  // behind "More" (.sp-secondary; the bar is .sp-open while they are shown).
  const btnMore = h("button", { type: "button", class: "sp-btn sp-more", "data-control": "more",
    "aria-expanded": "false", "aria-label": "More controls", title: "More controls", text: "More \u2026" });
  const secondary = (...els) => {
    for (const e of els) e.classList.add("sp-secondary");
    return els;
  };
  const toolbar = h("div", { class: "sp-bar", role: "toolbar", "aria-label": "Game controls" },
    h("span", { class: "sp-group" },
      button("new", "New game", "New game with the chosen variant, suits and deal number (N)", "sp-primary"),
      ...secondary(selVariant, selSuits, inpDeal, btnResume)),
    h("span", { class: "sp-group" },
      ...secondary(button("restart", "Restart", "Restart this deal")),
      btnUndo, btnRedo,
      button("hint", "Hint", "Show a good move (H)"),
      ...secondary(btnThink, lblWinnable, lblFour, btnStats), btnMore));
  const stats = h("div", { class: "sp-stats" }, title, dealNo, statScore, statMoves, statDeals, statRuns, statTime,
    statWinnable, btnUndoToWinnable, btnResign, btnAnalyse, btnUndoToTurning);
  // Before a game in progress is given up (New game, Restart, Resume, Give up): "Abandon this game?"
  const btnYes = h("button", { type: "button", class: "sp-btn sp-primary", "data-confirm-action": "confirm" });
  const btnNo = h("button", { type: "button", class: "sp-btn", "data-confirm-action": "keep", text: "Keep playing" });
  const questionText = h("span", { class: "sp-confirm-text", id: `${uid}-confirm`, text: QUESTION.new[0] });
  const question = h("div", { class: "sp-confirm", role: "alertdialog", "aria-labelledby": `${uid}-confirm`, hidden: true },
    questionText, btnYes, btnNo);
  // the status line (news.js): two lines tall whatever it says; a longer message opens whole over the felt
  const news = createNews(uid);
  const message = news.el;
  const bannerSlot = h("div", { class: "sp-banner-slot" });
  const live = h("div", { class: "sp-sr", "aria-live": "polite", "aria-atomic": "true" });

  let variants = []; // from Python
  let view = null; // the view shown
  let game = ""; // "variant|suits" of the game the choosers last followed
  let liveText = "";
  let liveToggle = false;
  let statsRows = []; // from Python (the stats trait)
  let asked = null; // the action the question is about: "new", "restart", "resume" or null

  // What the choosers offer: Python's variants; without them, only the game being played.
  const choices = () => (variants.length ? variants
    : view && view.variant ? [{ name: view.variant, title: view.variant, suits: view.suits ? [view.suits] : [] }]
      : []);

  function fillSuits() {
    const chosen = choices().find((x) => x.name === selVariant.value);
    const offered = chosen ? chosen.suits.map((n) => [String(n), suitsText(n)]) : [];
    const same = offered.length === selSuits.options.length &&
      offered.every(([value], i) => selSuits.options[i].value === value);
    if (!same) setOptions(selSuits, offered);
  }

  function fillVariants() {
    setOptions(selVariant, choices().map((x) => [x.name, x.title]));
    fillSuits();
  }

  function showTitle() {
    if (!view) return;
    const variant = variants.find((x) => x.name === view.variant);
    const suits = view.suits;
    title.textContent = `${variant ? variant.title : view.variant || "Spiderette"}${suits ? ` \u00b7 ${suitsText(suits)}` : ""}`;
  }

  // The banner over a game that has ended: Python's words for its end (view.ending), and what to do next.
  function showBanner(status, ending) {
    const current = bannerSlot.firstChild;
    if (!ending) {
      if (current) current.remove();
    } else if (!current || current.getAttribute("data-banner") !== status) {
      if (current) current.remove();
      const b = h("div", { class: `sp-banner sp-banner-${status}`, "data-banner": status, role: "alert" },
        h("span", { class: "sp-banner-text", text: ending }));
      if (status === "won") {
        b.append(h("button", { type: "button", class: "sp-btn", "data-banner-action": "new", text: "Play again" }));
      } else {
        b.append(h("button", { type: "button", class: "sp-btn", "data-banner-action": "undo", text: "Undo" }),
          h("button", { type: "button", class: "sp-btn", "data-banner-action": "analyse", text: ANALYSE[0],
            title: ANALYSE[1] }),
          h("button", { type: "button", class: "sp-btn", "data-banner-action": "new", text: "New game" }));
      }
      bannerSlot.append(b);
    }
  }

  function say(text) {
    liveText = text;
    live.textContent = text;
  }

  function update(v, prev) {
    view = v;
    dealNo.textContent = v.deal === null ? "Custom position" : `Deal ${v.deal}`;
    dealNo.title = dealNo.textContent; // (whole, when a long number is cut)
    timer.clock = v.clock;
    tick();
    // the deal number typed for a new game is used up once that game is on the table
    const typed = inpDeal.value.trim();
    if (typed && v.last && v.last.kind === "new" && /^[0-9]+$/.test(typed) && v.deal === typed.replace(/^0+(?=.)/, "")) {
      inpDeal.value = "";
    }
    valScore.textContent = String(v.score);
    valMoves.textContent = String(v.moves);
    valDeals.textContent = String(v.deals_left);
    valRuns.textContent = `${v.runs}/${v.runs_total}`;
    news.show(v.message, v.tone || "plain", v);
    btnUndo.disabled = !v.can_undo;
    btnRedo.disabled = !v.can_redo;
    const [action, label, tip] = v.thinking ? STOP_THINKING : THINK;
    if (btnThink.dataset.action !== action) {
      btnThink.dataset.action = action;
      btnThink.textContent = label;
      btnThink.title = tip;
    }
    btnThink.setAttribute("aria-pressed", v.thinking ? "true" : "false");
    chkWinnable.checked = v.winnable !== null;
    statWinnable.hidden = v.winnable === null;
    valWinnable.textContent = verdictText(v.winnable);
    btnUndoToWinnable.hidden = v.undo_to_winnable === null;
    btnUndoToWinnable.disabled = v.undo_to_winnable === null;
    btnUndoToTurning.hidden = !(v.analysis && v.analysis.undo);
    const [turnLabel, turnTip] = v.analysis && v.analysis.to === "winnable" ? UNDO_TO_LAST_WINNABLE : UNDO_TO_TURNING;
    if (btnUndoToTurning.textContent !== turnLabel) {
      btnUndoToTurning.textContent = turnLabel;
      btnUndoToTurning.title = turnTip;
    }
    btnResign.hidden = !v.moves || !!v.ending || v.offer_analysis === "resigned" || v.status === "won";
    // the post-mortem's two buttons (the stats bar's, the banner's): "Looking…" while it runs, spent once done
    const looking = !!v.analysis && v.analysis.state === "running";
    const analysed = !!v.analysis && v.analysis.state === "done";
    btnAnalyse.hidden = !v.offer_analysis || !!v.ending || analysed;
    const ask = bannerSlot.querySelector('[data-banner-action="analyse"]');
    for (const b of ask ? [btnAnalyse, ask] : [btnAnalyse]) {
      b.disabled = looking || (b === ask && analysed);
      b.textContent = looking ? "Looking\u2026" : ANALYSE[0];
    }
    btnResume.hidden = !v.resume;
    if (v.resume) btnResume.title = resumeTip(v.resume, choices());
    btnStats.setAttribute("aria-expanded", v.panel === "stats" ? "true" : "false");
    panel.update(v.panel === "stats", statsRows);
    showTitle();
    // The choosers follow the game being played, but keep a choice the player made since then.
    const g = `${v.variant}|${v.suits}`;
    if (g !== game) {
      game = g;
      if (!variants.length) fillVariants();
      if (offers(selVariant, v.variant)) selVariant.value = v.variant;
      fillSuits();
      if (offers(selSuits, String(v.suits))) selSuits.value = String(v.suits);
    }
    showBanner(v.status, v.ending);
    // the banner's Undo is the toolbar's: disabled alike (a dead end loaded without its history)
    const bannerUndo = bannerSlot.querySelector('[data-banner-action="undo"]');
    if (bannerUndo) {
      bannerUndo.disabled = !v.can_undo;
      bannerUndo.title = v.can_undo ? "Undo (Ctrl+Z or U)" : "Nothing to undo: start a new game";
    }
    // screen-reader mirror of the message line (re-announce a repeated message after a new answer)
    if (v.message !== liveText) {
      say(v.message);
    } else if (v.message && prev && prev.version !== v.version) {
      liveToggle = !liveToggle;
      live.textContent = v.message + (liveToggle ? "\u00a0" : "");
    }
  }

  function ask(action) {
    asked = action;
    [questionText.textContent, btnYes.textContent] = QUESTION[action];
    question.dataset.confirm = action;
    question.hidden = false;
    btnNo.focus({ preventScroll: true });
  }

  /** Close the question; returns the action it was about (null if none was open). */
  function closeQuestion() {
    const action = asked;
    asked = null;
    question.hidden = true;
    delete question.dataset.confirm;
    return action;
  }

  return {
    toolbar, stats, message, question, panel: panel.el, bannerSlot, live,
    update,
    say,
    ask,
    closeQuestion,
    asking: () => asked,
    destroy() {
      news.destroy();
      timers.delete(timer);
      tick();
    },
    /** Stop the clock where it stands (Python does not answer: nothing is being played). */
    stopClock() {
      if (!timer.clock || !timer.clock.running) return;
      const secs = secondsOf(timer.clock, performance.now());
      timer.clock = { ...timer.clock, elapsed: secs, running: false };
      tick();
    },
    /** The four-colour box follows the widget's four_colour trait. */
    setFour(on) {
      chkFour.checked = !!on;
    },
    setStats(rows) {
      statsRows = rows;
      panel.update(!!view && view.panel === "stats", statsRows);
    },
    setVariants(list) {
      variants = list;
      fillVariants();
      showTitle();
    },
    /** Why the deal number typed cannot be played ("" when it can, or when the box is empty): said before
     * anything is asked, quoting at most 20 characters of it. */
    dealProblem() {
      const typed = inpDeal.value.trim();
      if (!typed) return "";
      const quoted = typed.length > 20 ? `'${typed.slice(0, 20)}…' (${typed.length} characters)` : `'${typed}'`;
      if (!/^[0-9]+$/.test(typed)) return `Refused: a deal number is a whole number from 0 to ${MAX_DEAL}, not ${quoted}`;
      if (BigInt(typed) > BigInt(MAX_DEAL)) return `Refused: deal numbers go up to ${MAX_DEAL}, not ${quoted}`;
      return "";
    },
    /** Show a refusal the front end made itself (until the next view). */
    refuse(text) {
      news.show(text, "refusal", null);
      say(text);
    },
    newGameIntent() {
      const intent = { action: "new" };
      if (selVariant.value) intent.variant = selVariant.value;
      if (selSuits.value) intent.suits = Number(selSuits.value);
      if (inpDeal.value.trim()) intent.seed = inpDeal.value.trim(); // Python checks it (and says so)
      return intent;
    },
    bind(on, act) {
      const press = (e) => {
        const btn = e.target.closest("button");
        const action = btn && (btn.dataset.action || btn.dataset.bannerAction);
        if (action) act(action);
      };
      on(toolbar, "click", press);
      news.bind(on, message.closest(".spiderette") || message);
      on(btnMore, "click", () => {
        const open = toolbar.classList.toggle("sp-open");
        btnMore.setAttribute("aria-expanded", open ? "true" : "false");
      });
      // Enter in the deal number box: New game
      on(inpDeal, "keydown", (e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          act("new");
        }
      });
      on(bannerSlot, "click", press);
      on(stats, "click", press);
      on(panel.el, "click", (e) => {
        if (e.target.closest("[data-panel-action=close]")) act({ action: "stats", open: false });
      });
      // the Winnable? checkbox asks Python; the view it publishes sets the box
      on(chkWinnable, "change", () => act({ action: "winnable", on: chkWinnable.checked }));
      // the four-colour deck: Python keeps the choice (the four_colour trait), every view of it follows
      on(chkFour, "change", () => act({ action: "four_colour", on: chkFour.checked }));
      // the suits a variant offers
      on(selVariant, "change", fillSuits);
    },
  };
}
