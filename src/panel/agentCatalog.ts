import type { AgentDefinition } from '../agents/agentConfig';
import type { AgentChoiceView } from '../contract/viewModel';
import { isInstalled } from '../acp/commandLookup';

/** What decides whether an agent's program is found: its command and the PATH it starts with. */
const lookupKey = (agent: AgentDefinition) => `${agent.command}\0${agent.env.PATH ?? process.env.PATH ?? ''}`;

/** The configured agents, as last read from the settings. */
export class AgentCatalog {
  private agents: AgentDefinition[];
  /** Whether each agent's program was found on its PATH, by lookupKey; unknown until looked up. */
  private readonly installed = new Map<string, boolean>();

  constructor(private readonly load: () => AgentDefinition[]) {
    this.agents = load();
  }

  get all(): readonly AgentDefinition[] {
    return this.agents;
  }

  /** Settings may have changed since the list was read; a session always starts from the current ones. */
  reload(): void {
    this.agents = this.load();
  }

  find(agentId: string): AgentDefinition | undefined {
    return this.agents.find((candidate) => candidate.id === agentId);
  }

  /** The agent `agentId`, or the first configured one when that agent left the settings. */
  findOrFirst(agentId: string): AgentDefinition | undefined {
    return this.find(agentId) ?? this.agents[0];
  }

  choices(): AgentChoiceView[] {
    return this.agents.map((agent) => ({ id: agent.id, label: agent.label, description: agent.description, installed: this.installed.get(lookupKey(agent)) ?? null }));
  }

  /**
   * Looks up (again) whether each agent's program is on its PATH, without blocking the host: the
   * picker says which are installed. True when any answer changed. `cwd`: where a relative command is.
   */
  async lookUpInstalled(cwd: string): Promise<boolean> {
    const answers = await Promise.all(this.agents.map(async (agent) => [lookupKey(agent), await isInstalled(agent.command, agent.env.PATH ?? process.env.PATH, cwd)] as const));
    let changed = false;
    for (const [key, installed] of answers) {
      changed ||= this.installed.get(key) !== installed;
      this.installed.set(key, installed);
    }
    return changed;
  }
}
