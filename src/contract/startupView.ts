/** How an agent's start went, stage by stage (src/conversation/startup.ts), published to the webview. */
export { startupStages, startupStageLabels, type StartupStage, type StageStateView, type StartupStageView, type StartupView } from '../conversation/startup';
