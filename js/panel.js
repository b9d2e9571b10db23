// The Statistics panel: an inline section above the table with the rows Python sends in the `stats`
// trait (one per variant and suit count played, and the current one). It draws; it computes nothing.

import { h } from "./cards.js";
import { suitsText } from "./values.js";

/** The columns after the variant: [field, heading]. */
const COLUMNS = [
  ["played", "Played"], ["won", "Won"], ["win_rate", "Win rate"], ["streak", "Streak"],
  ["best_streak", "Best streak"], ["best_score", "Best score"], ["fewest_moves", "Fewest moves"],
];

function cell(row, field) {
  const x = row[field];
  if (typeof x !== "number" || !Number.isFinite(x)) return "\u2014";
  return field === "win_rate" ? `${Math.round(100 * x)}%` : String(x);
}

/** `model.get("stats")` as rows [{variant, title, suits, current, played, ...}]. */
export function readStats(raw) {
  const rows = raw && Array.isArray(raw.rows) ? raw.rows : [];
  return rows.filter((r) => r && typeof r === "object" && typeof r.variant === "string");
}

/**
 * The panel (`[data-panel="stats"]`, hidden while closed). update(open, rows) shows it; its close
 * button carries `data-panel-action="close"` (the chrome turns a press into the `stats` intent).
 */
export function createStatsPanel(id) {
  const body = h("tbody");
  const head = h("tr", null, h("th", { scope: "col", text: "Variant" }),
    ...COLUMNS.map(([field, text]) => h("th", { scope: "col", "data-stat": field, text })));
  const table = h("table", { class: "sp-stats-table" }, h("thead", null, head), body);
  const empty = h("p", { class: "sp-panel-note", text: "No games played yet: a game counts once a move is made." });
  const el = h("section", { class: "sp-panel", id, "data-panel": "stats", role: "region", "aria-label": "Statistics", hidden: true },
    h("div", { class: "sp-panel-head" },
      h("span", { class: "sp-panel-title", text: "Statistics" }),
      h("button", { type: "button", class: "sp-btn sp-panel-close", "data-panel-action": "close",
        "aria-label": "Close statistics", title: "Close statistics", text: "\u00d7" })),
    table, empty);
  let shown = "";

  function update(open, rows) {
    el.hidden = !open;
    if (!open) return;
    const sig = JSON.stringify(rows);
    if (sig === shown) return;
    shown = sig;
    body.replaceChildren(...rows.map((r) => {
      const tr = h("tr", { "data-stats-row": `${r.variant}:${r.suits}`, class: r.current ? "sp-current" : null,
        "aria-current": r.current ? "true" : null },
      h("th", { scope: "row", text: `${r.title || r.variant} \u00b7 ${suitsText(r.suits)}` }),
      ...COLUMNS.map(([field]) => h("td", { "data-stat": field, text: cell(r, field) })));
      return tr;
    }));
    empty.hidden = rows.some((r) => r.played > 0);
  }

  return { el, update };
}
