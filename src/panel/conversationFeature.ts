import { pathToFileURL } from 'node:url';
import type * as acp from '@agentclientprotocol/sdk';
import type { HostToWebview, WebviewToHost } from '../contract/messages';
import type { CommandView, ConversationView, MentionView, PromptImageView, UsageView } from '../contract/conversationView';
import { assertNever } from '../util/assertNever';
import { CoalescedTask } from '../util/coalescedTask';
import { DisposableStore, toDisposable, type Disposable } from '../util/disposable';
import type { LocationView } from '../contract/viewModel';
import type { PermissionPolicy } from '../permissions/permissionPolicy';
import type { SessionController } from '../conversation/sessionController';
import { LEGACY_MODEL_ID, SessionOptions } from '../conversation/sessionOptions';
import type { SessionFactName } from '../thread/threadModel';
import { commandViews, usageView } from '../usage/panel/usageView';
import { SETTINGS } from '../contract/ids';
import type { RecordStore } from '../permissions/recordStore';
import { RememberedCommands, type RememberedCommandsRecord } from './rememberedCommands';

/** The session facts this view shows (the title travels with the tabs). */
const shownFacts: ReadonlySet<SessionFactName> = new Set<SessionFactName>(['usage', 'currentModeId', 'availableCommands', 'configOptions', 'rateLimits']);

/** Usage updates can come several per second; one message per frame interval is plenty. */
const POST_DELAY_MS = 30;

/** What only the editor can do for the conversation controls; each one is optional. */
export interface ConversationEditor {
  findMentions?(query: string): Promise<MentionView[]>;
  /** The text a mention stands for: the open buffer (unsaved edits included) or the disk; a selection's lines. Null: not text. */
  readMention?(mention: MentionView): Promise<string | null>;
  copyText?(text: string): void;
  /** "Follow the agent": show where the agent works, without taking focus. */
  revealLocation?(path: string, line: number | null): void;
  /** Mirrors the usage meter (e.g. in the status bar). */
  showUsage?(usage: UsageView | null, agentName: string): void;
  /** Where each agent's last list of slash commands is kept, for "/" before it has started. */
  rememberedCommands?: RecordStore<RememberedCommandsRecord>;
}

export type ConversationMessage = Extract<WebviewToHost, { type: 'setSessionOption' | 'setFollowAgent' | 'requestMentions' | 'revokeGrant' | 'copyText' }>;

/**
 * The conversation's controls for the current session: config pickers (with optimistic change
 * and rollback), the usage meter, slash commands, prompt attachments, "follow the agent", and
 * the permission policy's view. The presenter attaches each new session.
 */
export class ConversationFeature implements Disposable {
  private session: SessionController | null = null;
  private options: SessionOptions | null = null;
  /** Per session (tab), so a picker's state survives switching tabs. */
  private readonly optionsBySession = new WeakMap<SessionController, { options: SessionOptions; sessionId: string | null }>();
  private attached: Disposable | null = null;
  private followAgent = false;
  private lastRevealed = '';
  private readonly postTask = new CoalescedTask(POST_DELAY_MS, () => this.postConversation());
  private readonly subscriptions = new DisposableStore();
  private readonly remembered: RememberedCommands | null;

  constructor(
    private readonly post: (message: HostToWebview) => void,
    private readonly editor: ConversationEditor = {},
    private readonly policy: PermissionPolicy | null = null,
  ) {
    this.remembered = editor.rememberedCommands ? new RememberedCommands(editor.rememberedCommands) : null;
    if (policy) this.subscriptions.add(policy.onDidChange(() => this.postPermissions()));
  }

  /** The panel shows `session` (a tab became active): follow its events from now on. */
  show(session: SessionController): void {
    if (this.session === session) return;
    this.attached?.dispose();
    this.session = session;
    const state = this.optionsBySession.get(session) ?? { options: new SessionOptions(session.thread), sessionId: null };
    this.optionsBySession.set(session, state);
    this.options = state.options;
    const store = new DisposableStore();
    store.add(session.onConnectionChanged(() => {
      this.syncOptions(session);
      this.postTask.schedule();
    }));
    store.add(session.thread.onFactChanged((name) => {
      if (name === 'availableCommands') this.rememberCommands(session);
      if (shownFacts.has(name)) this.postTask.schedule();
    }));
    store.add(session.thread.onToolCallLocated(({ locations }) => this.follow(locations)));
    store.add(session.costs.onChanged(() => this.postTask.schedule()));
    store.add(toDisposable(() => {
      if (this.session === session) this.session = null;
    }));
    this.attached = store;
    this.syncOptions(session);
    this.postAll();
  }

  view(): ConversationView {
    const session = this.session;
    return {
      controls: this.options?.controls() ?? [],
      usage: session ? usageView(session.thread.facts.usage, session.lastPromptResponse) : null,
      ...this.commands(session),
      prompt: session ? promptSupport(session) : { image: false, embeddedContext: false },
      followAgent: this.followAgent,
      rateLimits: session?.thread.facts.rateLimits ?? [],
      ...(session?.costs.warning ? { budget: session.costs.warning } : {}),
    };
  }

  /**
   * The agent's own commands once it listed them; before its session is up, those it listed when
   * it last ran here (the agent starts with the first message), or none, said as such.
   */
  private commands(session: SessionController | null): Pick<ConversationView, 'commands' | 'commandsFrom'> {
    const listed = commandViews(session?.thread.facts.availableCommands ?? []);
    if (!session || listed.length > 0) return { commands: listed };
    const phase = session.connectionView.phase;
    if (phase !== 'idle' && phase !== 'starting') return { commands: listed };
    const remembered: CommandView[] = this.remembered?.of(session.agent.id) ?? [];
    return remembered.length > 0 ? { commands: remembered, commandsFrom: 'lastRun' } : { commands: [], commandsFrom: 'notStarted' };
  }

  private rememberCommands(session: SessionController): void {
    const listed = commandViews(session.thread.facts.availableCommands);
    if (listed.length > 0) this.remembered?.remember(session.agent.id, listed);
  }

  /**
   * A turn of the shown session started or ended: the controls go out now, not after the
   * coalescing delay, so the panel never shows a turn ended a few frames ahead of the usage it
   * ended on. The presenter calls this in order, between the thread's last deltas and the turn.
   */
  turnChanged(): void {
    this.postTask.cancel();
    this.postConversation();
  }

  /** Sends the whole state, e.g. after a snapshot. */
  postAll(): void {
    this.postConversation();
    this.postPermissions();
  }

  async handle(message: ConversationMessage): Promise<void> {
    switch (message.type) {
      case 'setSessionOption':
        return this.setOption(message.optionId, message.value);
      case 'setFollowAgent':
        this.followAgent = message.enabled;
        this.lastRevealed = '';
        this.postConversation();
        return;
      case 'requestMentions': {
        const items = (await this.editor.findMentions?.(message.query)) ?? [];
        this.post({ type: 'mentionCandidates', requestId: message.requestId, items });
        return;
      }
      case 'revokeGrant':
        this.policy?.revoke(message.grantId);
        return;
      case 'copyText':
        this.editor.copyText?.(message.text);
        return;
      default:
        assertNever(message, 'conversation message');
    }
  }

  /**
   * Content blocks for a prompt's mentions and images: embedded `resource` blocks (with the
   * buffer's unsaved text) when the agent takes embedded context, else `resource_link`s.
   */
  async promptAttachments(session: SessionController, mentions: readonly MentionView[], images: readonly PromptImageView[]): Promise<{ blocks: acp.ContentBlock[]; refused: string | null }> {
    const prompt = promptSupport(session);
    const blocks: acp.ContentBlock[] = [];
    for (const mention of mentions) {
      const fileUri = pathToFileURL(mention.path).href;
      const uri = mention.kind === 'selection' && mention.startLine ? `${fileUri}#L${mention.startLine}-${mention.endLine ?? mention.startLine}` : fileUri;
      const text = prompt.embeddedContext && mention.kind !== 'folder' ? await this.editor.readMention?.(mention) ?? null : null;
      if (text !== null) blocks.push({ type: 'resource', resource: { uri, text, mimeType: 'text/plain' } });
      else blocks.push({ type: 'resource_link', uri, name: mention.label });
    }
    if (images.length > 0 && !prompt.image) return { blocks, refused: 'This agent does not accept images, so they were not sent.' };
    for (const image of images) blocks.push({ type: 'image', mimeType: image.mimeType, data: image.data });
    return { blocks, refused: null };
  }

  dispose(): void {
    this.postTask.dispose();
    this.attached?.dispose();
    this.subscriptions.dispose();
  }

  private async setOption(optionId: string, value: string | boolean): Promise<void> {
    const session = this.session;
    const options = this.options;
    const live = session?.live;
    if (!session || !options || !live) return;
    const { connection, sessionId } = live;
    const refused = await options.change(optionId, value, {
      setConfigOption: async (configId, next) => (typeof next === 'boolean'
        ? await connection.setBooleanConfigOption(sessionId, configId, next)
        : await connection.setConfigOption(sessionId, configId, next)).configOptions,
      setMode: async (modeId) => {
        await connection.setMode(sessionId, modeId);
      },
      setModel: (modelId) => connection.setModel(sessionId, modelId),
    }, () => this.postConversation());
    if (refused) session.thread.addNotice('warning', `${session.agent.label} kept its setting: ${refused}`, ['showLog']);
  }

  /** A newly opened agent session brings its own legacy modes and models. */
  private syncOptions(session: SessionController): void {
    const state = this.optionsBySession.get(session);
    const sessionId = session.live?.sessionId ?? null;
    if (!state || !sessionId || state.sessionId === sessionId) return;
    state.sessionId = sessionId;
    const models = session.live?.connection.legacyModels(sessionId) ?? null;
    state.options.reset(session.newSessionResponse?.modes ?? null, models);
    const defaultModel = session.agent.defaultConfigOptions.model;
    if (defaultModel && models && models.currentModelId !== defaultModel && state.options.accepts(LEGACY_MODEL_ID, defaultModel)) void this.applyLegacyDefault(session, state.options, defaultModel);
  }

  /** The user's default model for an agent that only has legacy models, once its session opened. */
  private async applyLegacyDefault(session: SessionController, options: SessionOptions, modelId: string): Promise<void> {
    const live = session.live;
    if (!live) return;
    const refused = await options.change(LEGACY_MODEL_ID, modelId, {
      setConfigOption: () => Promise.reject(new Error('no config options')),
      setMode: () => Promise.reject(new Error('not a mode')),
      setModel: (id) => live.connection.setModel(live.sessionId, id),
    }, () => this.postTask.schedule());
    if (refused) session.thread.addNotice('warning', `A default from ${SETTINGS.agents}.${session.agent.id} was not accepted: ${refused}`, ['showLog']);
  }

  /** "Follow the agent": show the last place it named, once per place in a row. */
  private follow(locations: readonly LocationView[]): void {
    const location = locations.at(-1);
    if (!this.followAgent || !location) return;
    const key = `${location.path}:${location.line ?? ''}`;
    if (key === this.lastRevealed) return;
    this.lastRevealed = key;
    this.editor.revealLocation?.(location.path, location.line);
  }

  private postConversation(): void {
    const view = this.view();
    this.post({ type: 'conversationChanged', conversation: view });
    this.editor.showUsage?.(view.usage, this.session?.agent.label ?? '');
  }

  private postPermissions(): void {
    if (!this.policy || !this.session) return;
    this.post({ type: 'permissionsChanged', permissions: this.policy.view(this.session.agent.id) });
  }
}

/** What the session's agent accepts in a prompt besides text. */
function promptSupport(session: SessionController): ConversationView['prompt'] {
  const capabilities = session.live?.connection.initializeResponse?.agentCapabilities?.promptCapabilities;
  return { image: Boolean(capabilities?.image), embeddedContext: Boolean(capabilities?.embeddedContext) };
}
