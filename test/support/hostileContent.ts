/**
 * Elements and attributes under `root` that could run code or load something: the one check the
 * browser tests and the code-server tests run on rendered agent content. It runs in the page
 * (pass it to `evaluate` of a locator), so it is self-contained: no imports, no helpers.
 *
 * xterm's own elements are left out: its DOM renderer makes nonced <style> elements and sets
 * cell styles, none of it from the agent. `data:` URLs count as hostile because agent text
 * never legitimately produces one (tool images are checked by their own tests).
 */
export function hostileContent(root: Element): string[] {
  const dangerousTags = ['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE', 'LINK', 'META', 'BASE', 'FORM', 'SVG', 'MATH', 'VIDEO', 'INPUT'];
  const found: string[] = [];
  for (const node of root.querySelectorAll('*')) {
    const tag = node.tagName.toUpperCase();
    const inTerminal = node.closest('.xterm') !== null;
    if (dangerousTags.includes(tag) && !inTerminal) found.push(tag);
    for (const attribute of node.attributes) {
      if (attribute.name.startsWith('on')) found.push(`${tag}[${attribute.name}]`);
      // The meter and the plan progress set custom properties through CSSOM (allowed by the CSP); nothing else has a style.
      if (attribute.name === 'style' && !inTerminal && !/^(--usage|--done): [\d.]+%;$/.test(attribute.value)) found.push(`${tag}[style=${attribute.value}]`);
      if (['href', 'src', 'action', 'data'].includes(attribute.name) && /^\s*(javascript|vbscript|data:)/i.test(attribute.value)) found.push(`${tag}[${attribute.name}=${attribute.value}]`);
    }
    if (tag === 'IMG' && /^https?:/i.test(node.getAttribute('src') ?? '')) found.push(`remote img ${node.getAttribute('src')}`);
  }
  return found;
}
