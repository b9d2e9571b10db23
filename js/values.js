// Plain values read from the model, of the type wanted or a neutral stand-in, and the few words every part
// of the front end writes the same way. Shared by view.js, replay.js, toolbar.js and panel.js.

export const arr = (x) => (Array.isArray(x) ? x : []);
export const obj = (x) => (x && typeof x === "object" && !Array.isArray(x) ? x : null);
export const num = (x) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
export const int = (x) => (Number.isInteger(x) ? x : 0);
export const str = (x) => (typeof x === "string" ? x : "");

/** "1 suit", "4 suits". */
export const suitsText = (n) => `${n} suit${n === 1 ? "" : "s"}`;
