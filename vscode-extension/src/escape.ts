// Text into HTML or SVG markup: every character that could end a text or an attribute value,
// as a numeric reference. Its own module so that the webviews' pages and the diagram's SVG use
// one escape without the results view's bundle pulling in the diagram's code.

export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
