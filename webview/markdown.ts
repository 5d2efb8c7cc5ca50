import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/common';
import MarkdownIt from 'markdown-it';

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
      const highlighted = language && hljs.getLanguage(language)
        ? hljs.highlight(code, { language, ignoreIllegals: true }).value
        : escapeHtml(code);
      return `<pre class="code-block" data-language="${escapeHtml(language || '')}"><code class="hljs">${highlighted}</code></pre>`;
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

export function renderMarkdown(text: string): string {
  return DOMPurify.sanitize(markdown.render(text), purifyConfig);
}
