// Card faces for the page of `tarot serve`, drawn as inline SVG from what the server says of
// each card (its suit and rank, its trump number, or that it is the Fool): nothing is
// fetched. A suit card shows its index in the corner and its pips laid out as on a printed
// card, or its court's letter and name; a trump shows its number in Roman numerals at the top
// and foot, as the period packs print them; the Fool shows its name. The suit signs are the
// two families packs use, the Italian (swords, batons or wands, cups, coins) and the French
// (spades, hearts, diamonds, clubs); a suit of any other name is drawn with its initial.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CARD_W = 60;
const CARD_H = 90;

// Each sign is drawn in a 20x20 box centred on (0, 0).
const SIGNS = {
  spades: { color: "#111", path: "M0-9C4-4 9-1 9 3 9 7 4 8 1 5L2 9H-2L-1 5C-4 8-9 7-9 3-9-1-4-4 0-9Z" },
  hearts: { color: "#c0141c", path: "M0 9C-5 4-9 1-9-3-9-7-4-9 0-5 4-9 9-7 9-3 9 1 5 4 0 9Z" },
  diamonds: { color: "#c0141c", path: "M0-10 7 0 0 10-7 0Z" },
  clubs: { color: "#111", path: "M0-9A4 4 0 1 1 0-1 4 4 0 1 1-5 6 4 4 0 1 1-1 1L-2 9H2L1 1A4 4 0 1 1 5 6 4 4 0 1 1 0-1 4 4 0 1 1 0-9Z" },
  swords: { color: "#1d4f91", path: "M-2-8 0-12 2-8V3H-2ZM-7 3H7V6H-7ZM-2 6H2V9H-2ZM-3 9H3V11H-3Z" },
  batons: { color: "#2f6b1f", path: "M-4-8Q0-12 4-8L3 9Q0 11-3 9ZM-6-3H6V-1H-6ZM-5 4H5V6H-5Z" },
  cups: { color: "#a01818", path: "M-7-8H7Q7 0 1 2V7H5V9H-5V7H-1V2Q-7 0-7-8Z" },
  coins: { color: "#a87a00", path: "M0-9A9 9 0 1 1 0 9 9 9 0 1 1 0-9ZM0-5A5 5 0 1 0 0 5 5 5 0 1 0 0-5Z" },
};
SIGNS.wands = SIGNS.batons;

// Where the pips of a card of 1 to 10 lie, in the card's units.
const PIPS = {
  1: [[30, 45]],
  2: [[30, 24], [30, 66]],
  3: [[30, 22], [30, 45], [30, 68]],
  4: [[20, 24], [40, 24], [20, 66], [40, 66]],
  5: [[20, 24], [40, 24], [30, 45], [20, 66], [40, 66]],
  6: [[20, 22], [40, 22], [20, 45], [40, 45], [20, 68], [40, 68]],
  7: [[20, 22], [40, 22], [30, 33], [20, 45], [40, 45], [20, 68], [40, 68]],
  8: [[20, 22], [40, 22], [30, 33], [20, 45], [40, 45], [30, 57], [20, 68], [40, 68]],
  9: [[20, 20], [40, 20], [20, 37], [40, 37], [30, 45], [20, 53], [40, 53], [20, 70], [40, 70]],
  10: [[20, 20], [40, 20], [30, 29], [20, 37], [40, 37], [20, 53], [40, 53], [30, 61], [20, 70], [40, 70]],
};

const ROMAN = [[10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];

function roman(number) {
  let left = number;
  let text = "";
  for (const [value, letters] of ROMAN) {
    while (left >= value) {
      text += letters;
      left -= value;
    }
  }
  return text;
}

function svg(tag, attributes = {}, text = null) {
  const made = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) made.setAttribute(name, String(value));
  if (text !== null) made.textContent = text;
  return made;
}

// A suit's sign at (x, y), `size` units across.
function sign(suit, x, y, size) {
  const known = SIGNS[suit];
  const scale = size / 20;
  if (!known) {
    const group = svg("g", { transform: `translate(${x} ${y})` });
    group.append(svg("circle", { r: size / 2, fill: "none", stroke: "#444", "stroke-width": 1 }));
    group.append(svg("text", { y: size * 0.18, "font-size": size * 0.55, "text-anchor": "middle", fill: "#444" }, suit.slice(0, 1).toUpperCase()));
    return group;
  }
  return svg("path", { d: known.path, fill: known.color, "fill-rule": "evenodd", transform: `translate(${x} ${y}) scale(${scale})` });
}

function suitColor(suit) {
  return SIGNS[suit] ? SIGNS[suit].color : "#333";
}

function text(x, y, size, content, attributes = {}) {
  return svg("text", { x, y, "font-size": size, "text-anchor": "middle", "font-family": "Georgia, 'DejaVu Serif', serif", ...attributes }, content);
}

function suitFace(face, card) {
  const color = suitColor(card.suit);
  const index = typeof card.rank === "number" ? String(card.rank) : card.face;
  face.append(text(8, 13, 11, index, { fill: color, "font-weight": "bold" }));
  face.append(sign(card.suit, 8, 21, 8));
  const spots = typeof card.rank === "number" ? PIPS[card.rank] : null;
  if (spots) {
    for (const [x, y] of spots) face.append(sign(card.suit, x + 3, y, card.rank === 1 ? 22 : 10));
    return;
  }
  // a court: its letter large over its sign, its name on a banner at the foot
  face.append(svg("rect", { x: 14, y: 14, width: 38, height: 58, rx: 3, fill: "#f5ecd2", stroke: color, "stroke-width": 0.8 }));
  face.append(text(33, 42, 22, card.face, { fill: color, "font-weight": "bold" }));
  face.append(sign(card.suit, 33, 56, 13));
  face.append(text(33, 83, 8, String(card.rank), { fill: "#333" }));
}

function trumpFace(face, card) {
  const number = roman(card.trump);
  const size = number.length > 5 ? 8 : 11;
  face.append(svg("rect", { x: 5, y: 4, width: 50, height: 15, rx: 2, fill: "#f5ecd2", stroke: "#7a5a10", "stroke-width": 0.6 }));
  face.append(text(30, 15, size, number, { fill: "#5a3c00", "font-weight": "bold" }));
  face.append(svg("rect", { x: 5, y: 71, width: 50, height: 15, rx: 2, fill: "#f5ecd2", stroke: "#7a5a10", "stroke-width": 0.6 }));
  face.append(text(30, 82, size, number, { fill: "#5a3c00", "font-weight": "bold" }));
  face.append(svg("path", { d: "M30 27 34 41 48 45 34 49 30 63 26 49 12 45 26 41Z", fill: "#d9a520", stroke: "#7a5a10", "stroke-width": 0.6 }));
  face.append(text(8, 30, 6, "\u2605", { fill: "#7a5a10" }));
}

function foolFace(face) {
  face.append(svg("rect", { x: 5, y: 71, width: 50, height: 15, rx: 2, fill: "#ece4fb", stroke: "#40207a", "stroke-width": 0.6 }));
  face.append(text(30, 82, 9, "the Fool", { fill: "#40207a" }));
  face.append(svg("circle", { cx: 30, cy: 38, r: 15, fill: "#ece4fb", stroke: "#40207a", "stroke-width": 0.8 }));
  face.append(svg("path", { d: "M18 30 30 18 42 30 36 28 30 34 24 28Z", fill: "#b01e2e" }));
  face.append(text(30, 46, 14, "\u2605", { fill: "#40207a" }));
}

// The card as an SVG face, its label read by screen readers.
function cardSvg(card) {
  const face = svg("svg", { viewBox: `0 0 ${CARD_W} ${CARD_H}`, class: "face", "aria-hidden": "true", focusable: "false" });
  face.append(svg("rect", { x: 0.5, y: 0.5, width: CARD_W - 1, height: CARD_H - 1, rx: 5, fill: "#fffdf6", stroke: "#555", "stroke-width": 1 }));
  if (card.fool) foolFace(face);
  else if (card.trump !== null) trumpFace(face, card);
  else suitFace(face, card);
  return face;
}

window.cardSvg = cardSvg;
