/**
 * Making untrusted text safe inside Mermaid source.
 *
 * Everything from a trace (tool names and arguments, error messages, raw frames, URLs) is
 * untrusted, and so is anything a caller hands a generator. Mermaid reads text in three passes,
 * and each can be broken or abused:
 *   1. preprocessing over the whole source: `%%{…}%%` directives anywhere change the config,
 *      `%%` starts a comment, `---` front matter at the top;
 *   2. the diagram's lexer: in a sequence diagram a message ends at `;`, `#` or a newline
 *      (`#` also starts a comment); in a state diagram a label ends at `:`, `;` or a newline, a
 *      quoted name at `"`, and a line that says `direction TB` anywhere becomes a statement;
 *   3. the renderer: labels can hold HTML (`<br>`, `<img onerror=…>`), and state names are
 *      markdown.
 * Mermaid's own escape is the entity code `#NN;` (a decimal code point between `#` and `;`):
 * before any parser runs, `encodeEntities` turns each into a placeholder, and after rendering
 * `decodeEntities` turns it into `&#NN;` in the SVG markup, so the character is drawn as text
 * and never read as syntax or markup. `mermaidText` writes every character that matters in any
 * of the three passes that way, so one function serves messages, notes, labels and names.
 */

/** Characters written as Mermaid entity codes. */
const ESCAPED = new Set([
  '#', // entity and comment start; ends a sequence message
  ';', // statement separator; ends a message or label
  ':', // separates a label; `wrap:` prefixes; the `style …: … #…;` preprocessing rule
  '<', // HTML
  '>',
  '&', // so `&lt;` shows as typed
  '"', // ends a quoted state name
  "'",
  '`', // markdown strings
  '%', // `%%` comments and `%%{init}%%` directives
  '{', // directives, composite-state bodies
  '}',
  '\\',
  '\uFB02', // 'ﬂ' and '¶': the two characters of Mermaid's own entity placeholders ("ﬂ°…¶ß")
  '\u00B6',
]);

/** Zero-width characters and bidirectional overrides: dropped, so text cannot hide or reorder itself. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
/** Controls, line and paragraph separators, and runs of whitespace: one space (no line can be split). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SPACING = /[\s\u0000-\u001F\u007F-\u009F]+/g;

export function entity(ch: string): string {
  return `#${ch.codePointAt(0) ?? 0};`;
}

/**
 * Untrusted text as Mermaid text: on one line, with every character that Mermaid could read as
 * syntax or markup written as an entity code, and clipped to `maxLength` characters (before
 * escaping, so no entity is cut) with an ellipsis.
 */
export function mermaidText(s: string, maxLength = Number.POSITIVE_INFINITY): string {
  const text = clip(s.replace(INVISIBLE, '').replace(SPACING, ' ').trim(), maxLength);
  let out = '';
  for (const ch of text) out += ESCAPED.has(ch) ? entity(ch) : ch;
  return out;
}

/** Clips text to `maxLength` characters with an ellipsis, without escaping it. */
export function clip(s: string, maxLength: number): string {
  const chars = Array.from(s);
  return chars.length > maxLength ? chars.slice(0, Math.max(0, maxLength - 1)).join('') + '…' : s;
}
