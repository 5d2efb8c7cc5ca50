import type { PostToHost } from './vscodeApi';

/** Gives every rendered code block a copy button (the host writes the clipboard: it always can). */
export function decorateCodeBlocks(root: HTMLElement): void {
  for (const block of root.querySelectorAll<HTMLElement>('pre.code-block')) {
    if (block.querySelector(':scope > .copy-code')) continue;
    const copy = document.createElement('button');
    copy.className = 'copy-code';
    copy.title = 'Copy code';
    copy.setAttribute('aria-label', 'Copy code');
    const glyph = document.createElement('span');
    glyph.className = 'codicon codicon-copy';
    glyph.setAttribute('aria-hidden', 'true');
    copy.append(glyph);
    block.prepend(copy);
  }
}

/** One listener for every copy button, including those of blocks rendered later. */
export function listenForCodeCopies(root: HTMLElement, post: PostToHost): void {
  root.addEventListener('click', (event) => {
    const copy = (event.target as HTMLElement).closest<HTMLElement>('button.copy-code');
    if (!copy) return;
    event.preventDefault();
    event.stopPropagation();
    const code = copy.parentElement?.querySelector('code');
    post({ type: 'copyText', text: code?.textContent ?? '' });
    copy.classList.add('copied');
    copy.title = 'Copied';
    setTimeout(() => {
      copy.classList.remove('copied');
      copy.title = 'Copy code';
    }, 1500);
  }, true);
}
