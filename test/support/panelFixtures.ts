// Panel states for browser tests and benchmarks of the webview: plain view-model data.
import { emptyConversation, type ConversationView } from '../../src/contract/conversationView';
import type { PanelState } from '../../src/contract/viewModel';
import type { ThreadEntry, ToolCallView } from '../../src/thread/entries';
import { newToolCallView } from '../../src/thread/toolCallMapping';

/** The conversation controls' view with `patch` over the empty one. */
export function conversationView(patch: Partial<ConversationView>): ConversationView {
  return { ...emptyConversation, ...patch };
}

export function panelState(entries: ThreadEntry[], patch: Partial<PanelState> = {}): PanelState {
  return {
    agents: [{ id: 'scripted', label: 'Scripted agent', description: 'test', installed: true }],
    selectedAgentId: 'scripted',
    connection: { phase: 'ready', message: null, agentName: 'Scripted agent' },
    turn: { running: false },
    queue: { items: [], paused: false },
    sessionTitle: null,
    entries,
    review: { files: [], canRedo: false },
    terminals: [],
    tabs: { tabs: [{ id: 't1', title: 'Test', agentId: 'scripted', agentLabel: 'Scripted agent', busy: false, waiting: false, empty: false, canFork: false }], activeTabId: 't1' },
    workspaceRoot: null,
    ...patch,
  };
}

export function toolEntry(id: string, patch: Partial<ToolCallView>): ThreadEntry {
  return { kind: 'toolCall', id, tool: { ...newToolCallView(`call-${id}`), ...patch } };
}

/**
 * Hostile payloads in every place agent text reaches the panel. Each tries to set
 * `window.__pwned`, load something remote, or break the layout.
 */
export const HOSTILE_MARKDOWN = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'onerror\'">',
  '[js](javascript:window.__pwned=\'js-link\') [JS](JaVaScRiPt:window.__pwned=1) [spaced](  javascript:window.__pwned=1) [vb](vbscript:msgbox(1))',
  '[data](data:text/html,<script>window.__pwned=1</script>) [entity](&#106;avascript:window.__pwned=1) [ref][r]\n\n[r]: javascript:window.__pwned=1',
  '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = \'svg-script\'</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss\'"></style></mglyph></table></mtext></math>',
  '<a href="#" onclick="window.__pwned = \'onclick\'">click</a> <iframe src="https://example.com"></iframe> <object data="https://example.com/x"></object> <embed src="https://example.com/y">',
  '<form action="https://example.com"><button>go</button></form> <meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1"> <base href="https://example.com/">',
  '<link rel="stylesheet" href="https://example.com/x.css"> <style>body { display: none !important }</style> <div style="position:fixed;inset:0;background:red">cover</div>',
  '![tracker](https://example.com/track.png) ![js](javascript:window.__pwned=1) <img src="https://example.com/a.png">',
  '```html\n<script>window.__pwned = "in a fence"</script>\n```',
  '<details open ontoggle="window.__pwned = \'ontoggle\'"><summary>x</summary></details> <video src=x onerror="window.__pwned=1"></video> <input autofocus onfocus="window.__pwned=1">',
  'END-OF-HOSTILE',
].join('\n\n');

export const HOSTILE_INLINE = '<img src=x onerror="window.__pwned = \'inline\'"><script>window.__pwned = "inline-script"</script>';

/** Inputs meant to exhaust the renderer rather than run code. */
export const HUGE_MARKDOWN = [
  'x'.repeat(1_000_000),
  '>'.repeat(5_000) + ' deep',
  '*'.repeat(20_000),
  '```\n' + 'line\n'.repeat(20_000) + '```',
  '['.repeat(10_000) + 'a' + ']'.repeat(10_000),
  'END-OF-HUGE',
].join('\n\n');
