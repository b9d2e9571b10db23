// Keys typed inside a widget stay there: no notebook shortcut runs for them; but a key combination with
// Ctrl, Meta or Alt that the widget does not use goes on to the notebook (Ctrl+B the sidebar, Ctrl+S save).
//
// JupyterLab and Notebook 7 (Lumino) match a key's shortcuts from the focused element upwards and stop at
// the first element marked `data-lm-suppress-shortcuts`. The root is marked, but a focused button, select
// or input inside it matches the notebook's command-mode selector itself before the walk reaches the root
// (Hint, then D D deleted the cell). So every element that takes focus inside the root is marked as it
// takes it (focusin bubbles, and comes before any key). Notebook 7 listens in the capture phase, so the
// mark is what counts; hosts that listen in the bubbling phase are also kept out by stopping the key at
// the root (the widget's own listeners on the root still run; typing in an input still types).
//
// A combination that goes on: the marks on its way up are lifted for that key only, before anyone sees it
// (a listener on the window, in the capture phase, is the first of all), and put back once it has been
// handled; the root lets it bubble. Kept in the widget whatever the modifier: Enter and Space (with a
// modifier, the notebook would run the widget's cell again and deal anew), the combinations the widget uses
// (`uses`: the table's Ctrl+Z, Ctrl+Y, Ctrl+U), and in a text box or a chooser the keys that edit text
// (Ctrl+A, C, V, X, Z, Y, the arrows, Home, End, Backspace, Delete).

export const SUPPRESS = "data-lm-suppress-shortcuts";

const EDITING = new Set(["a", "c", "v", "x", "z", "y", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home",
  "End", "Backspace", "Delete"]);

/**
 * Whether the key `e` (typed on an element inside a widget) goes on to the notebook: a combination with Ctrl,
 * Meta or Alt that the widget does not use (`uses(e)`), nor Enter or Space, nor a key that edits the text of
 * an input, a select or a text area. E.g. Ctrl+B goes on; B, Shift+B, Ctrl+Enter and the table's Ctrl+Z stay.
 */
export function passes(e, uses = () => false) {
  if (!(e.ctrlKey || e.metaKey || e.altKey)) return false;
  if (e.key === "Enter" || e.key === " " || uses(e)) return false;
  const t = e.target;
  const editable = !!t && typeof t.closest === "function" && !!t.closest("input, select, textarea");
  const key = e.key && e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return !(editable && (e.ctrlKey || e.metaKey) && EDITING.has(key));
}

/**
 * Keep every key typed inside `root` away from the notebook, but the combinations that pass (see `passes`;
 * `uses(e)`: the widget's own combinations); `on` adds a listener removed at cleanup.
 */
export function keepKeys(root, on, uses = () => false) {
  root.setAttribute(SUPPRESS, "true");
  on(root, "focusin", (e) => {
    const t = e.target;
    if (t instanceof Element && !t.hasAttribute(SUPPRESS)) t.setAttribute(SUPPRESS, "true");
  });
  let lifted = []; // the marks lifted for a key that goes on, put back before the next key at the latest
  const restore = () => {
    for (const n of lifted) n.setAttribute(SUPPRESS, "true");
    lifted = [];
  };
  on(window, "keydown", (e) => {
    restore();
    const t = e.target;
    if (!(t instanceof Element) || !root.contains(t) || !passes(e, uses)) return;
    for (let n = t; n; n = n === root ? null : n.parentElement) {
      if (n.hasAttribute(SUPPRESS)) {
        n.removeAttribute(SUPPRESS);
        lifted.push(n);
      }
    }
    setTimeout(restore, 0);
  }, { capture: true });
  on(root, "keydown", (e) => {
    if (!passes(e, uses)) e.stopPropagation();
  });
  on(root, "keyup", (e) => {
    if (!passes(e, uses)) e.stopPropagation();
  });
}
