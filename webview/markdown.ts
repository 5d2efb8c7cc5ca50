import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { highlightCode } from './codeLanguages';

/** A code block drawn plain while its language's chunk loads; highlighted in place once it has. */
const WAITING = 'code-waiting';

/**
 * Agent text is untrusted. Raw HTML is off in the parser, and the output is sanitized again
 * with DOMPurify: no script, no event handlers, no style, only safe link schemes. Remote
 * images are also blocked by the CSP, so nothing loads without the user's action.
 */
const markdown = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: false,
  highlight(code, language) {
    try {
      const highlighted = language ? highlightCode(code, language, highlightWaitingBlocks) : 'unknown';
      const html = typeof highlighted === 'object' ? highlighted.html : escapeHtml(code);
      const waiting = highlighted === 'loading' ? ` ${WAITING}` : '';
      return `<pre class="code-block${waiting}" data-language="${escapeHtml(language || '')}"><code class="hljs">${html}</code></pre>`;
    } catch {
      return '';
    }
  },
});

// Remote images would load without the user's action (the CSP blocks them anyway): show them as
// links the user can choose to open instead.
markdown.renderer.rules.image = (tokens, index) => {
  const token = tokens[index];
  const src = String(token?.attrGet('src') ?? '');
  const alt = token?.content || 'image';
  return `<a href="${escapeHtml(src)}" class="image-link" title="Open image ${escapeHtml(src)}"><span class="codicon codicon-file-media"></span> ${escapeHtml(alt)}</a>`;
};

const allowedLink = /^(https?:|file:|#|\/|\.{0,2}\/|[\w.-]+(\/|$|#L\d+))/i;

markdown.validateLink = (url: string) => allowedLink.test(url.trim()) && !/^(javascript|vbscript|data):/i.test(url.trim());

const purifyConfig = {
  ALLOWED_TAGS: ['a', 'p', 'br', 'hr', 'em', 'strong', 's', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span', 'img'],
  ALLOWED_ATTR: ['href', 'title', 'class', 'data-language', 'start', 'alt', 'src', 'align'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|file:|#|\/|\.{0,2}\/|[\w.-]+(?:\/|$|#L\d+))/i,
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

/**
 * Sanitized HTML as nodes, parsed once: handing DOMPurify's own tree over skips serializing it
 * and parsing the string again (innerHTML), and the configuration is read once, not on every call
 * (a streamed answer is rendered many times a second). The instance is this module's own, so the
 * fixed configuration is nobody else's.
 */
function sanitized(html: string): DocumentFragment {
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.setConfig({ ...purifyConfig, RETURN_DOM_FRAGMENT: true });
  }
  return purifier.sanitize(html) as unknown as DocumentFragment;
}

/** highlight.js output as nodes, through the same sanitizer as agent text. */
export function highlightedFragment(html: string): DocumentFragment {
  return sanitized(html);
}

export function renderMarkdown(text: string): DocumentFragment {
  return sanitized(markdown.render(text));
}

/**
 * A language arrived: the blocks on the page still waiting for one get their own text
 * highlighted, code element only (the block, its copy button and what surrounds it stay as they
 * are). Blocks rendered from now on are highlighted as they are drawn.
 */
function highlightWaitingBlocks(): void {
  for (const block of document.querySelectorAll<HTMLElement>(`pre.${WAITING}`)) {
    const code = block.querySelector('code');
    const highlighted = code ? highlightCode(code.textContent ?? '', block.dataset.language ?? '', highlightWaitingBlocks) : 'unknown';
    if (highlighted === 'loading') continue;
    block.classList.remove(WAITING);
    if (code && typeof highlighted === 'object') code.replaceChildren(sanitized(highlighted.html));
  }
}
