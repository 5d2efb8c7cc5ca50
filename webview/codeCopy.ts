import type { PostToHost } from './vscodeApi';

/**
 * Gives every rendered code block a copy button (the host writes the clipboard: it always can).
 * The button sits in a frame around the block, not in the block: the block scrolls sideways, and
 * a button inside it would scroll away with the code.
 */
export function decorateCodeBlocks(root: ParentNode): void {
  for (const block of root.querySelectorAll<HTMLElement>('pre.code-block')) {
    if (block.parentElement?.classList.contains('code-frame')) continue;
    const frame = document.createElement('div');
    frame.className = 'code-frame';
    block.replaceWith(frame);
    frame.append(copyButton(), block);
  }
}

function copyButton(): HTMLButtonElement {
  const copy = document.createElement('button');
  copy.className = 'copy-code';
  copy.title = 'Copy code';
  copy.setAttribute('aria-label', 'Copy code');
  const glyph = document.createElement('span');
  glyph.className = 'codicon codicon-copy';
  glyph.setAttribute('aria-hidden', 'true');
  copy.append(glyph);
  return copy;
}

/** One listener for every copy button, including those of blocks rendered later. */
export function listenForCodeCopies(root: HTMLElement, post: PostToHost): void {
  root.addEventListener('click', (event) => {
    const copy = (event.target as HTMLElement).closest<HTMLElement>('button.copy-code');
    if (!copy) return;
    event.preventDefault();
    event.stopPropagation();
    const code = copy.parentElement?.querySelector('pre.code-block code');
    post({ type: 'copyText', text: code?.textContent ?? '' });
    copy.classList.add('copied');
    copy.title = 'Copied';
    setTimeout(() => {
      copy.classList.remove('copied');
      copy.title = 'Copy code';
    }, 1500);
  }, true);
}
