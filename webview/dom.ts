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

let aligning = false;

/** At the next frame, before it is drawn, every spinner's turn starts at the document timeline's zero. */
function alignSpinners(): void {
  if (aligning) return;
  aligning = true;
  requestAnimationFrame(() => {
    aligning = false;
    for (const animation of document.getAnimations()) {
      if (animation instanceof CSSAnimation && animation.animationName === 'spinner-turn' && animation.startTime !== 0) animation.startTime = 0;
    }
  });
}

/**
 * A busy icon that turns (media/panel.css: eight steps a second, still with reduced motion). Every
 * spinner turns on one clock, so a card drawn again mid-turn keeps its angle instead of jumping
 * back, and several spinners change in the same frames. Codicons turn the loading icon smoothly,
 * a new frame every frame: each is a frame the editor composites, and around a webview VS Code
 * redraws the whole view for it (in software without a GPU) while the agent needs the same cores.
 */
export function spinner(name: string, extraClass = ''): HTMLElement {
  alignSpinners();
  return icon(name, `spinner ${extraClass}`.trim());
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

/**
 * A compact button showing only its icon: its words are its accessible name, shown as a tooltip on
 * hover (`title`) and, for the keyboard, beside it on focus (media/panel.css, from `aria-label`).
 */
export function iconButton(label: string, iconName: string, options: { title?: string; onClick: () => void; className?: string }): HTMLButtonElement {
  const node = el('button', { type: 'button', class: `icon-action${options.className ? ` ${options.className}` : ''}`, 'aria-label': label, title: options.title ?? label }, icon(iconName));
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
