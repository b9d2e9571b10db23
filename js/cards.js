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

// ---- faces ------------------------------------------------------------------------------------
// Drawn here, in SVG: the suit shapes (100 x 100 boxes), the pips of 2-10 laid out as on real cards,
// a large suit on an ace, a framed portrait (a headgear, the letter, the suit) on J, Q and K. The art of
// a card is one SVG used as a CSS mask over a span coloured with the suit's colour (currentColor), so
// a face is a handful of elements and follows the theme and the four-colour deck.

const SUIT_PATH = {
  H: "M50 92C47 86 36 76 22 62C10 50 4 41 4 29C4 15 15 5 28 5C38 5 46 11 50 20C54 11 62 5 72 5C85 5 96 15 96 29" +
    "C96 41 90 50 78 62C64 76 53 86 50 92Z",
  D: "M50 3C60 20 72 36 86 50C72 64 60 80 50 97C40 80 28 64 14 50C28 36 40 20 50 3Z",
  S: "M50 4C56 18 70 30 82 40C92 48 97 56 97 65C97 78 87 86 76 86C66 86 58 81 54 73C55 83 59 90 67 96H33C41 90 " +
    "45 83 46 73C42 81 34 86 24 86C13 86 3 78 3 65C3 56 8 48 18 40C30 30 44 18 50 4Z",
  C: "M50 6A21 21 0 0 1 67 40A21 21 0 1 1 56 72C57 82 61 90 68 96H32C39 90 43 82 44 72A21 21 0 1 1 33 40" +
    "A21 21 0 0 1 50 6Z",
};

// Headgear of the court cards, in a 100 x 60 box: a crown (K), a coronet with pearls (Q), a feathered cap (J).
const HEADGEAR = {
  K: "M8 56L4 14L28 34L50 2L72 34L96 14L92 56ZM8 60H92V68H8Z",
  Q: "M10 58Q16 30 30 38Q40 16 50 14Q60 16 70 38Q84 30 90 58ZM10 61H90V68H10Z" +
    "M45 9A5 5 0 1 0 55 9A5 5 0 1 0 45 9ZM25 33A5 5 0 1 0 35 33A5 5 0 1 0 25 33ZM65 33A5 5 0 1 0 75 33A5 5 0 1 0 65 33Z",
  J: "M8 60Q10 26 48 24Q84 24 92 60ZM56 26Q70 -2 98 2Q84 12 64 30ZM6 62H94V68H6Z",
};

// Pip centres of the number cards in a 100 x 140 card: columns x, rows y (a pip below the middle is upside down).
const X = [30, 50, 70];
const Y = [34, 58, 82, 106];
const PIPS = {
  2: [[1, 34], [1, 106]],
  3: [[1, 34], [1, 70], [1, 106]],
  4: [[0, 34], [2, 34], [0, 106], [2, 106]],
  5: [[0, 34], [2, 34], [1, 70], [0, 106], [2, 106]],
  6: [[0, 34], [2, 34], [0, 70], [2, 70], [0, 106], [2, 106]],
  7: [[0, 34], [2, 34], [1, 52], [0, 70], [2, 70], [0, 106], [2, 106]],
  8: [[0, 34], [2, 34], [1, 52], [0, 70], [2, 70], [1, 88], [0, 106], [2, 106]],
  9: [...Y.map((y) => [0, y]), ...Y.map((y) => [2, y]), [1, 70]],
  T: [...Y.map((y) => [0, y]), ...Y.map((y) => [2, y]), [1, 46], [1, 94]],
};
const PIP = 17; // a pip's width

// A shape of the 100-unit box `d` drawn `size` wide, centred on (cx, cy); upside down when `flip`.
const place = (cx, cy, size, flip) => {
  const k = size / 100;
  return flip
    ? `<use href='#s' transform='translate(${cx + size / 2} ${cy + size / 2}) scale(${-k})'/>`
    : `<use href='#s' transform='translate(${cx - size / 2} ${cy - size / 2}) scale(${k})'/>`;
};

/** The art of a face (rank, suit letters) as an SVG data URL, or "" for an unknown card. */
export function artUrl(rank, suit) {
  const d = SUIT_PATH[suit];
  if (!d) return "";
  let body = "";
  if (rank === "A") {
    body = place(50, 70, 50, false);
  } else if (PIPS[rank]) {
    body = PIPS[rank].map(([c, y]) => place(X[c], y, PIP, y > 70)).join("");
  } else if (HEADGEAR[rank]) {
    body = "<rect x='20' y='23' width='60' height='94' rx='4' fill='none' stroke='%23000' stroke-width='2'/>" +
      `<path d='${HEADGEAR[rank]}' transform='translate(33 29) scale(0.34)'/>` +
      place(50, 104, 15, false);
  } else {
    return "";
  }
  // (Only "#" is escaped: a percent-encoded "<" would read "%3C", which looks like a card code.)
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 140' preserveAspectRatio='none'>` +
    `<defs><path id='s' d='${d}'/></defs>${body}</svg>`;
  return `url("data:image/svg+xml,${svg.replace(/#s/g, "%23s")}")`;
}

// Two prototypes per card code (its face in full, and with the art left out), cloned for every drawing
// (fast, and one place for the markup).
const faceCache = new Map();

/**
 * A face-up card (`.sp-card.sp-up`, `data-card`); the caller places it and names it. Inside: the index
 * (rank and suit, top left; the only part a compact face keeps, with a large suit), the suit top right,
 * the art (pips, ace or portrait), the court letter, and the index again upside down (bottom right).
 * `full`: with its art. A card under others shows only its top strip, so the table draws the art on the
 * cards seen whole only (the top of each column, the foundations): fewer images to paint, clean strips.
 */
export function cardFace(code, full = true) {
  const key = full ? code : `${code}-`;
  let proto = faceCache.get(key);
  if (!proto) {
    const rank = code[0];
    const suit = SUIT[code[1]] || { name: "?", sym: "?" };
    const label = RANK_LABEL[rank] || rank;
    const court = rank === "J" || rank === "Q" || rank === "K";
    const kind = court ? " sp-court" : rank === "A" ? " sp-ace" : "";
    proto = h("div", {
      class: `sp-card sp-up sp-s${code[1] ? code[1].toLowerCase() : "x"}${kind}`,
      role: "img",
      "data-card": code,
    });
    const corner = (cls) =>
      h("span", { class: `sp-corner ${cls}`, "aria-hidden": "true" },
        h("span", { class: "sp-rank", text: label }),
        h("span", { class: "sp-suit", text: suit.sym }));
    proto.append(corner("sp-tl"), h("span", { class: "sp-corner sp-tr", "aria-hidden": "true", text: suit.sym }));
    if (full) {
      // (a court card's letter on its tinted frame, under the art: the frame line, the headgear, the suit)
      if (court) proto.append(h("span", { class: "sp-court-rank", "aria-hidden": "true", text: label }));
      const art = h("span", { class: "sp-art", "aria-hidden": "true" });
      const url = artUrl(rank, code[1]);
      if (url) {
        art.style.setProperty("-webkit-mask-image", url);
        art.style.setProperty("mask-image", url);
      }
      proto.append(art);
    }
    proto.append(corner("sp-br"));
    faceCache.set(key, proto);
  }
  return proto.cloneNode(true);
}

/**
 * Show card element `el` (from cardFace) whole while a drag uncovers it (`.sp-uncovered`: a covered card
 * hides its art, see css/cards.css); false takes that back.
 */
export function showArt(el, shown = true) {
  const code = el.dataset.card;
  if (!code) return;
  if (shown && !el.querySelector(".sp-art")) el.replaceChildren(...cardFace(code, true).childNodes);
  el.classList.toggle("sp-uncovered", shown);
}
