// Cards: their names (for screen readers), their faces, and the small h() DOM helper.

const RANK_NAME = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
  8: "eight", 9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};
const RANK_LABEL = { T: "10" };
// U+FE0E asks for the text (not emoji) presentation of the suit symbols.
const SUIT = {
  S: { name: "spades", sym: "\u2660\uFE0E" },
  H: { name: "hearts", sym: "\u2665\uFE0E" },
  D: { name: "diamonds", sym: "\u2666\uFE0E" },
  C: { name: "clubs", sym: "\u2663\uFE0E" },
};

/** The letter of column `i` (0-based): a, b, ... z, aa, ab, ... as in the move notation. */
export function letter(i) {
  let s = "";
  i += 1;
  while (i > 0) {
    const r = (i - 1) % 26;
    s = String.fromCharCode(97 + r) + s;
    i = Math.floor((i - 1) / 26);
  }
  return s;
}

/** "queen of hearts" for "QH". */
export function cardName(code) {
  const r = RANK_NAME[code[0]] || code[0];
  const s = SUIT[code[1]] ? SUIT[code[1]].name : code.slice(1);
  return `${r} of ${s}`;
}

/**
 * An element: h("div", {class: "x", text: "hello", "data-a": 1}, child, ...).
 * Attributes that are null, undefined or false are left out; true gives an empty attribute.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k === "text") el.textContent = v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

// One prototype per card code, cloned for every drawing (fast, and one place for the markup).
const faceCache = new Map();

/** A face-up card (`.sp-card.sp-up`, `data-card`); the caller places it and names it. */
export function cardFace(code) {
  let proto = faceCache.get(code);
  if (!proto) {
    const rank = code[0];
    const suit = SUIT[code[1]] || { name: "?", sym: "?" };
    const label = RANK_LABEL[rank] || rank;
    const court = rank === "J" || rank === "Q" || rank === "K";
    proto = h("div", {
      class: `sp-card sp-up sp-s${code[1] ? code[1].toLowerCase() : "x"}${court ? " sp-court" : ""}`,
      role: "img",
      "data-card": code,
    });
    const corner = (cls) =>
      h("span", { class: `sp-corner ${cls}`, "aria-hidden": "true" },
        h("span", { class: "sp-rank", text: label }),
        h("span", { class: "sp-suit", text: suit.sym }));
    proto.append(
      corner("sp-tl"),
      h("span", { class: "sp-corner sp-tr", "aria-hidden": "true", text: suit.sym }),
      court
        ? h("span", { class: "sp-pip", "aria-hidden": "true" },
          h("span", { class: "sp-court-rank", text: label }),
          h("span", { class: "sp-court-suit", text: suit.sym }))
        : h("span", { class: "sp-pip", "aria-hidden": "true", text: suit.sym }),
      corner("sp-br"),
    );
    faceCache.set(code, proto);
  }
  return proto.cloneNode(true);
}
