// The panel with the scripted agent in an empty workspace, in one real VS Code: "/" before the
// agent has started, chunks loaded on demand under the real CSP, and a registry listing with a
// loader variable, and the usage ledger. One code-server start serves them all; each describe lives in scripted-panel/
// (not *.test.ts, so the runner does not start it alone). The keyboard checks keep a code-server
// of their own (panel-keyboard.e2e): they count turns and badges from a fresh window.
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { openTandemWorkbench, sharedWorkbench, tempWorkspace } from '../support/tandemWorkbench';
import { describeFirstCommands } from './scripted-panel/firstCommands';
import { describeLazyChunks } from './scripted-panel/lazyChunks';
import { describeRegistryLoader, REGISTRY_LOADER_SETTINGS } from './scripted-panel/registryLoader';
import { describeUsageLedger } from './scripted-panel/usageLedger';

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

// In this order: the first commands need an agent not started yet (typing "/" loads no chunk),
// the chunk checks need a panel that has loaded no chunk yet, the registry checks leave the panel alone.
describeFirstCommands(workbench);
describeLazyChunks(workbench);
describeRegistryLoader(workbench);
describeUsageLedger(workbench);
