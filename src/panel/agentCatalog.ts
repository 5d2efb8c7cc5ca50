import type { AgentDefinition } from '../agents/agentConfig';
import type { AgentChoiceView } from '../contract/viewModel';

/** The configured agents, as last read from the settings. */
export class AgentCatalog {
  private agents: AgentDefinition[];

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
    return this.agents.map((agent) => ({ id: agent.id, label: agent.label, description: agent.description }));
  }
}
