// The only way message-derived text reaches the page (docs/dashboard.md, "Safety"):
//   clean(raw)      the terminal gate's rule (internal/text/sanitize.cpp) in JavaScript: every
//                   hidden character becomes a visible escape
//   text(raw)       a <span class="u"> (unicode-bidi: isolate) whose textContent is clean(raw)
//   h(tag, ...)     an element with fixed attributes and children; never HTML from a string
//   nameText(raw)   text(raw) for a mailbox name (or a list of them) in a table: cut with an
//                   ellipsis at a fixed width, shown whole on hover and while its row has focus
//   idLink(...)     an <a href> built only from ids, each percent-encoded
// Nothing here uses innerHTML, insertAdjacentHTML, document.write or a data-derived attribute
// other than an id inside an href.
//
// clean(): C0 controls and DEL as ^@..^_ and ^? (\n and \t kept in multi-line text), C1 as \x80..
// \x9f; bidi controls and every other format character (Cf), tag characters (U+E0000-U+E007F),
// other default-ignorables, U+2028/U+2029, noncharacters and lone surrogates as <U+XXXX>. A
// variation selector is kept directly after an emoji (U+FE0E, U+FE0F) or an ideograph
// (U+FE00-U+FE0F, U+E0100-U+E01EF), one per base; U+200D between two pictographic emoji. One-line
// text turns each run of \n, \r and \t into one space. (The terminal also keeps a selector after
// the bases of StandardizedVariants.txt; the page escapes those: stricter, never looser.)

const ZWJ = 0x200d;
const RE_HIDDEN = /[\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;
const RE_VS = /\p{Variation_Selector}/u;
const RE_EMOJI = /\p{Emoji}/u;
const RE_IDEO = /\p{Ideographic}/u;
const RE_PICTO = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;
const RE_SPACE = /\p{Zs}/u;

function hex(cp, width) {
  return cp.toString(16).toUpperCase().padStart(width, "0");
}

function marker(cp) {
  return `<U+${hex(cp, 4)}>`;
}

function mayVary(base, selector) {
  if (base === 0) return false;
  const b = String.fromCodePoint(base);
  if ((selector === 0xfe0e || selector === 0xfe0f) && RE_EMOJI.test(b)) return true;
  const ideographic = (selector >= 0xfe00 && selector <= 0xfe0f) || (selector >= 0xe0100 && selector <= 0xe01ef);
  return ideographic && RE_IDEO.test(b);
}

// `raw` (any value; null and undefined are "") made safe to show, as described above.
export function clean(raw, oneLine = true) {
  const s = raw === null || raw === undefined ? "" : String(raw);
  const chars = Array.from(s); // code points; a lone surrogate stays one element
  let out = "";
  let base = 0; // the visible code point just written, which a selector or ZWJ may follow
  let varied = false;
  let inBreak = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    const cp = ch.codePointAt(0);
    const previous = base;
    base = 0;
    if (oneLine && (cp === 0x0a || cp === 0x0d || cp === 0x09)) {
      if (!inBreak) out += " ";
      inBreak = true;
      continue;
    }
    inBreak = false;
    if (cp === 0x0a || cp === 0x09) {
      out += ch;
    } else if (cp < 0x20) {
      out += "^" + String.fromCharCode(cp + 0x40);
    } else if (cp === 0x7f) {
      out += "^?";
    } else if (cp >= 0x80 && cp <= 0x9f) {
      out += "\\x" + hex(cp, 2).toLowerCase();
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      out += marker(cp);
    } else if (cp >= 0xe0000 && cp <= 0xe007f) {
      out += marker(cp);
    } else if (RE_VS.test(ch)) {
      if (!varied && mayVary(previous, cp)) {
        out += ch;
        base = previous;
        varied = true;
      } else {
        out += marker(cp);
      }
    } else if (cp === ZWJ) {
      const next = i + 1 < chars.length ? chars[i + 1] : "";
      if (previous !== 0 && RE_PICTO.test(String.fromCodePoint(previous)) && next && RE_PICTO.test(next)) {
        out += ch;
      } else {
        out += marker(cp);
      }
    } else if (RE_HIDDEN.test(ch)) {
      out += marker(cp);
    } else {
      out += ch;
      if (!RE_SPACE.test(ch)) {
        base = cp;
        varied = false;
      }
    }
  }
  return out;
}

// A bidi-isolated span holding clean(raw) as text. `className` adds classes (fixed strings only).
export function text(raw, { oneLine = true, className = "" } = {}) {
  const span = document.createElement("span");
  span.className = className ? `u ${className}` : "u";
  span.textContent = clean(raw, oneLine);
  return span;
}

// A mailbox name (or a comma-separated list of names) in a table cell or heading. A name may be
// 128 bytes with no break opportunity; class "name" (style.css) cuts it at a fixed width with an
// ellipsis so no column is pushed off the screen, and shows it whole (wrapped anywhere) on hover
// and when the link or row holding it has keyboard focus.
export function nameText(raw) {
  return text(Array.isArray(raw) ? raw.join(", ") : raw, { className: "name" });
}

// An element: `attrs` are fixed attribute names and values from the page's own code (never from
// data; use text() for data and idLink() for links), `children` are nodes or plain strings from
// the page's own code (added as text nodes).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) {
      if (typeof v !== "function") throw new TypeError(`h(): ${k} must be a function`);
      el.addEventListener(k.slice(2), v);
    }
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// An id percent-encoded: encodeURIComponent, and !'()* too, so an href holds only
// [A-Za-z0-9%._~-] after the view's name.
export function encodeId(id) {
  return encodeURIComponent(String(id)).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

// An in-page link to a view: "#" + the view's name + each id percent-encoded.
export function idHref(view, ...ids) {
  return "#" + [view, ...ids.map(encodeId)].join("/");
}

export function idLink(label, view, ...ids) {
  const a = h("a", { href: idHref(view, ...ids) });
  a.append(label instanceof Node ? label : text(label));
  return a;
}

// Removes every child of `el`.
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Replaces the children of `el` with `children`.
export function fill(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}
