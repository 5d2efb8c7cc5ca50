// The frames on the wire with the scripted agent on a copy of the sample workspace, in one real
// VS Code: secrets kept out of the traffic channel and the export, then the frame inspector, the
// fidelity report and a recording replayed. One code-server start serves both; each describe
// lives in frames/ (not *.test.ts, so the runner does not start it alone).
import { scriptedAgentDefinition } from '../support/scriptedAgentSpec';
import { openTandemWorkbench, SAMPLE_WORKSPACE, sharedWorkbench, tempWorkspace } from '../support/tandemWorkbench';
import { describeInspector, INSPECTOR_AGENT_ENV } from './frames/inspector';
import { describeTrafficSecrets, TRAFFIC_SECRETS_SETTINGS } from './frames/trafficSecrets';

const workbench = sharedWorkbench(() => {
  const scripted = scriptedAgentDefinition();
  return openTandemWorkbench(tempWorkspace('e2e-frames', SAMPLE_WORKSPACE), {
    settings: {
      'tandem.defaultAgent': 'scripted',
      // One entry for both: the session options the inspector needs are frames the secret checks ignore.
      'tandem.agents': { scripted: { label: 'Scripted agent', command: scripted.command, args: scripted.args, env: INSPECTOR_AGENT_ENV } },
      'files.simpleDialog.enable': true,
      ...TRAFFIC_SECRETS_SETTINGS,
    },
  });
});

// In this order: the secret checks open the traffic channel before their conversation's frames
// come; the inspector then starts a conversation of its own.
describeTrafficSecrets(workbench);
describeInspector(workbench);
