// What the cores import of this family. Its definitions move here from src/contract once the contract
// sits above the cores in eslint.config.mjs; until then this file passes them on.
export type { ToolStatusView, ToolContentView, LocationView, PermissionOptionKindView, PermissionOptionView, PendingPermissionView, ToolCallView, PlanItemStatusView, PlanItemView, StopReasonView, NoticeSeverity, NoticeAction, ThreadEntry, ThreadDelta } from '../contract/viewModel';
export type { SteerOutcomeView, CompactionStatusView, CompactionView } from '../contract/agentExtrasView';
