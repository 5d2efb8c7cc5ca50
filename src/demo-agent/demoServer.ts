import * as acp from '@agentclientprotocol/sdk';
import { CancelFlags, promptText } from './agentKit';
import { configOptions, withOption } from './demoConfig';
import { clientOffers, DemoSession, DemoTurn, type ClientOffers } from './demoSession';
import { announceCommands, answerPrompt } from './turns';

/**
 * "Demo agent (offline)": a scripted ACP agent shipped with Tandem, so that the product can be
 * toured with no account and no network. In the sample workspace it plans, thinks, reads and
 * edits files through the client (asking first in its default mode), creates and deletes a
 * file, runs the sample's check in a client terminal, asks with a form and reports usage.
 * Everything it says is scripted and deterministic; two scripted "models" word it differently.
 */
export function serveDemoAgent(stream: acp.Stream): acp.AgentConnection {
  const sessions = new Map<string, DemoSession>();
  const cancels = new CancelFlags();
  let offers: ClientOffers = clientOffers(undefined);
  let nextSession = 1;

  const sessionOf = (sessionId: string): DemoSession => {
    const session = sessions.get(sessionId);
    if (!session) throw acp.RequestError.invalidParams({ sessionId }, `Unknown session ${sessionId}`);
    return session;
  };

  return acp
    .agent({ name: 'tandem-demo-agent' })
    .onRequest(acp.methods.agent.initialize, (ctx) => {
      offers = clientOffers(ctx.params.clientCapabilities);
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: { loadSession: false, promptCapabilities: { image: false, audio: false, embeddedContext: false } },
        agentInfo: { name: 'tandem-demo-agent', title: 'Demo agent (offline)', version: '2.0.0' },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, (ctx) => {
      const session = new DemoSession(`demo-${nextSession++}`, ctx.params.cwd, offers);
      sessions.set(session.id, session);
      // The slash commands belong to the session, which the client knows once this answer arrived.
      setTimeout(() => void announceCommands(ctx.client, session.id).catch(() => undefined), 50);
      return { sessionId: session.id, configOptions: configOptions(session.config) };
    })
    .onRequest(acp.methods.agent.session.setConfigOption, (ctx) => {
      const session = sessionOf(ctx.params.sessionId);
      session.config = withOption(session.config, ctx.params.configId, ctx.params.value);
      return { configOptions: configOptions(session.config) };
    })
    .onNotification(acp.methods.agent.session.cancel, (ctx) => cancels.cancel(ctx.params.sessionId))
    .onRequest(acp.methods.agent.session.prompt, async (ctx) => {
      const session = sessionOf(ctx.params.sessionId);
      session.turns++;
      const turn = new DemoTurn(ctx.client, session, cancels.begin(session.id));
      return { stopReason: await answerPrompt(turn, promptText(ctx.params.prompt)) };
    })
    .connect(stream);
}
