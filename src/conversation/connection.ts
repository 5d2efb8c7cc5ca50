// What the cores import of this family. Its definitions move here from src/contract once the contract
// sits above the cores in eslint.config.mjs; until then this file passes them on.
export type { ConnectionPhase, ConnectionView, TurnView } from '../contract/viewModel';
export type { SignInMethodView } from '../contract/terminalView';
