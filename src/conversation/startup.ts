// What the cores import of this family. Its definitions move here from src/contract once the contract
// sits above the cores in eslint.config.mjs; until then this file passes them on.
export { startupStages, type StartupStage, startupStageLabels, type StageStateView, type StartupStageView, type StartupView } from '../contract/startupView';
