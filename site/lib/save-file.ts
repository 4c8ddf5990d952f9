/** Hands the reader a file made in the page (a trace, checks.json, an SVG): nothing is uploaded. */
export function saveFile(name: string, text: string, type: string): void {
  const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  a.click();
  URL.revokeObjectURL(a.href);
}
