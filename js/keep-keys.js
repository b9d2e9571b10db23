// Keys typed anywhere inside a widget stay there: no notebook shortcut runs for them.
//
// JupyterLab and Notebook 7 (Lumino) match a key's shortcuts from the focused element upwards and stop at
// the first element marked `data-lm-suppress-shortcuts`. The root is marked, but a focused button, select
// or input inside it matches the notebook's command-mode selector itself before the walk reaches the root
// (Hint, then D D deleted the cell). So every element that takes focus inside the root is marked as it
// takes it (focusin bubbles, and comes before any key). Notebook 7 listens in the capture phase, so the
// mark is what counts; hosts that listen in the bubbling phase are also kept out by stopping the key at
// the root (the widget's own listeners on the root still run; typing in an input still types).

export const SUPPRESS = "data-lm-suppress-shortcuts";

/** Keep every key typed inside `root` away from the notebook; `on` adds a listener removed at cleanup. */
export function keepKeys(root, on) {
  root.setAttribute(SUPPRESS, "true");
  on(root, "focusin", (e) => {
    const t = e.target;
    if (t instanceof Element && !t.hasAttribute(SUPPRESS)) t.setAttribute(SUPPRESS, "true");
  });
  on(root, "keydown", (e) => e.stopPropagation());
  on(root, "keyup", (e) => e.stopPropagation());
}
