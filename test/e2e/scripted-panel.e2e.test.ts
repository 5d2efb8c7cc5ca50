// The panel with the scripted agent in an empty workspace, in one real VS Code: chunks loaded on
// demand under the real CSP, a registry listing with a loader variable, and the panel by keyboard
// and at a narrow side bar. One code-server start serves them all; each describe lives in
// scripted-panel/ (not *.test.ts, so the runner does not start it alone).
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { openTandemWorkbench, sharedWorkbench, tempWorkspace } from '../support/tandemWorkbench';
import { describeLazyChunks } from './scripted-panel/lazyChunks';
import { describePanelKeyboard } from './scripted-panel/panelKeyboard';
import { describeRegistryLoader, REGISTRY_LOADER_SETTINGS } from './scripted-panel/registryLoader';

const workbench = sharedWorkbench(() => {
  const scripted = scriptedAgentDefinition();
  return openTandemWorkbench(tempWorkspace('scripted-panel'), {
    settings: {
      'tandem.defaultAgent': 'scripted',
      'tandem.agents': { scripted: { label: 'Scripted agent', command: scripted.command, args: scripted.args } },
      ...REGISTRY_LOADER_SETTINGS,
    },
  });
});

// In this order: the chunk checks need a panel that has loaded no chunk yet, the registry checks
// leave the panel alone, and the keyboard checks start a conversation of their own and end on a
// high-contrast theme.
describeLazyChunks(workbench);
describeRegistryLoader(workbench);
describePanelKeyboard(workbench);
