// Ids unique in the page, for every view of every widget: the table's cards and piles, the panel, the plan.
//
// anywidget loads the front end once for each widget model (a module of its own, with its own variables), so
// a counter kept in the module starts again for every table: two tables on one page both numbered their
// ids `sp1`, and the second table's aria-activedescendant named the first table's card. The count is kept
// on the page instead (the global symbol registry is shared by every copy of the module), and a few random
// letters keep a copy of an older front end, with a count of its own, from meeting it.

const COUNT = Symbol.for("spiderette.ids");

/**
 * A new prefix for the ids of one view: `prefix`, a count of the page's views, random letters; never one
 * already used in `doc`. E.g. uniqueId("sp") is "sp3k9x2", and its table's cards are "sp3k9x2-c0-4"...
 */
export function uniqueId(prefix, doc = globalThis.document) {
  for (;;) {
    globalThis[COUNT] = (globalThis[COUNT] || 0) + 1;
    const id = `${prefix}${globalThis[COUNT]}${Math.random().toString(36).slice(2, 6)}`;
    if (!doc || !doc.querySelector(`[id^="${id}-"], [id="${id}"]`)) return id;
  }
}
