/** Tiny DOM helpers: every text goes in through textContent, never through HTML. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== null) node.append(child);
  return node;
}

export function icon(name: string, extraClass = ''): HTMLElement {
  return el('span', { class: `codicon codicon-${name} ${extraClass}`.trim(), 'aria-hidden': 'true' });
}

/** One turn of every spinner in the panel: eight steps a second, on the document's clock. */
const SPIN_TURN_MS = 1000;
const SPIN_STEPS = 8;

/**
 * A busy icon that turns. Every spinner turns on one shared clock (its animation starts at the
 * document timeline's zero), so a card drawn again mid-turn keeps its angle instead of jumping
 * back, and several spinners change in the same frames. Eight steps a second, not codicons' own
 * twenty smooth ones: each step is a frame the editor composites, and around a webview VS Code
 * redraws the whole view for it, in software without a GPU, while the agent needs the same cores.
 * With reduced motion asked for, it stays still.
 */
export function spinner(name: string, extraClass = ''): HTMLElement {
  const glyph = icon(name, `spinner ${extraClass}`.trim());
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return glyph;
  const turning = glyph.animate([{ transform: 'rotate(0deg)' }, { transform: 'rotate(360deg)' }], { duration: SPIN_TURN_MS, iterations: Infinity, easing: `steps(${SPIN_STEPS})` });
  turning.startTime = 0;
  return glyph;
}

export function button(label: string, options: { icon?: string; secondary?: boolean; title?: string; onClick: () => void }): HTMLElement {
  const node = document.createElement('vscode-button');
  node.textContent = label;
  if (options.icon) node.setAttribute('icon', options.icon);
  if (options.secondary) node.setAttribute('secondary', '');
  node.setAttribute('title', options.title ?? label);
  node.addEventListener('click', options.onClick);
  return node;
}

/** Plain text where `backticked` parts show as code: for the host's own sentences, not agent markdown. */
export function textWithCode(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  text.split(/(`[^`\n]+`)/).forEach((part) => {
    if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) fragment.append(el('code', {}, part.slice(1, -1)));
    else if (part) fragment.append(part);
  });
  return fragment;
}

/**
 * A path the host may open in the editor: absolute, relative or file: (and Windows drive
 * letters), never another scheme. The host checks again; this keeps agent-named schemes off the wire.
 */
export function isEditorPath(href: string): boolean {
  return !/^[a-z][a-z0-9+.-]+:/i.test(href.trim()) || /^file:/i.test(href.trim());
}
