/**
 * Two packaged builds of Tandem side by side in real code-server, on one scripted model server:
 * each build gets its own code-server, Chromium and Claude adapter, and the rounds alternate which
 * build streams first, both at rest before each prompt. Prints, per pace, each build's time (Enter
 * to the last line) and CPU per turn by party, and B's time and Tandem-side CPU over A's, round by
 * round. For deciding a change to the panel or host path on figures rather than a hunch:
 *
 *   npm run -s package && cp dist/tandem.vsix /tmp/a.vsix      # the build before the change
 *   npm run -s package && cp dist/tandem.vsix /tmp/b.vsix      # the build with it
 *   node --import tsx bench/compareBuilds.ts /tmp/a.vsix /tmp/b.vsix [characters, default 50000] [rounds, default 6] [frames]
 *
 * With `frames`, every turn also runs the frame probes in the webview and the workbench page (they
 * cost the renderer a frame every vsync, on both sides alike) and each build's longest frame gap
 * and frames over 50 ms are printed as well.
 *
 * `--a-settings=<json>` and `--b-settings=<json>` put user settings into that side's settings.json,
 * so one build can be compared with itself under two settings:
 *
 *   node --import tsx bench/compareBuilds.ts dist/tandem.vsix dist/tandem.vsix 200000 6 frames --b-settings='{"tandem.agentPriority":"normal"}'
 *
 * A diagnostic, not a bench section: `npm run bench` measures the build in dist/ against the raw client.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startClaudeModelServer } from '../test/support/model-servers/claude';
import { distribution, pairedRatios, type Figure } from './shared/figures';
import { sumOfCpu, untilIdle } from './shared/processCpu';
import type { Pace } from './streaming/rawAgent';
import { minMedianMax, ms, ratio } from './shared/report';
import { benchMarkdown, END_MARKER } from './shared/streamedAnswer';
import { openCodeServerStreaming, type CodeServerStreaming, type CodeServerTurn } from './streaming/codeServer';

const PACES: Pace[] = [
  { key: 'paced', label: 'model pace: 5,000 deltas/s', deltasPerSecond: 5_000 },
  { key: 'flood', label: 'flood' },
];

const spread = (values: number[], format: (value: number) => string) => minMedianMax(distribution(values, 'ms'), format);
const tandemCpu = (turn: CodeServerTurn) => (turn.cpu ? turn.cpu.hostMs + turn.cpu.rendererMs + turn.cpu.gpuMs : Number.NaN);
const ratios = (figure: Figure) => minMedianMax(figure, ratio);

function describe(name: string, turns: CodeServerTurn[]): string {
  const cpu = (pick: (turn: CodeServerTurn) => number) => spread(turns.map(pick), ms);
  return `  ${name}: Enter -> last line ${spread(turns.map((turn) => turn.ms), ms)}; CPU per turn: extension host + code-server ${cpu((turn) => turn.cpu?.hostMs ?? Number.NaN)}, `
    + `renderer ${cpu((turn) => turn.cpu?.rendererMs ?? Number.NaN)}, GPU ${cpu((turn) => turn.cpu?.gpuMs ?? Number.NaN)}, the agent ${cpu((turn) => turn.cpu?.agentMs ?? Number.NaN)} (min / median / max)`
    + frameGaps(turns);
}

/** The longest frame gap of each turn (webview or workbench, whichever is longer) and its frames over 50 ms, where the turns were probed. */
function frameGaps(turns: CodeServerTurn[]): string {
  const probed = turns.flatMap((turn) => (turn.frames ? [turn.frames] : []));
  if (probed.length === 0) return '';
  const longest = probed.map((frames) => Math.max(frames.webview.maxFrameMs, frames.workbench.maxFrameMs));
  const over50 = probed.map((frames) => Math.max(frames.webview.framesOver50, frames.workbench.framesOver50));
  return `; longest frame gap ${spread(longest, ms)}, frames over 50 ms ${minMedianMax(distribution(over50, 'count'), String)}`;
}

/** A side's settings as given on the command line: a JSON object, or the error says which option was wrong. */
function userSettings(option: string, json: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '{}');
  } catch (error) {
    throw new Error(`${option} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${option} must be a JSON object of settings, like {"tandem.agentPriority":"normal"}`);
  return parsed as Record<string, unknown>;
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { 'a-settings': { type: 'string', default: '{}' }, 'b-settings': { type: 'string', default: '{}' } } });
  const [a, b] = positionals;
  const characters = Number(positionals[2] ?? 50_000);
  const rounds = Number(positionals[3] ?? 6);
  const probeFrames = positionals[4] === 'frames';
  if (!a || !b || !existsSync(a) || !existsSync(b)) throw new Error('usage: node --import tsx bench/compareBuilds.ts <a.vsix> <b.vsix> [characters] [rounds] [frames] [--a-settings=<json>] [--b-settings=<json>]');
  const settings = [userSettings('--a-settings', values['a-settings']), userSettings('--b-settings', values['b-settings'])] as const;
  settings.forEach((side, index) => {
    if (Object.keys(side).length > 0) console.log(`${index === 0 ? 'A' : 'B'}'s settings: ${JSON.stringify(side)}`);
  });
  const model = await startClaudeModelServer();
  const builds: CodeServerStreaming[] = [];
  try {
    builds.push(await openCodeServerStreaming(model, a, settings[0]), await openCodeServerStreaming(model, b, settings[1]));
    const [first, second] = builds as [CodeServerStreaming, CodeServerStreaming];
    const atRest = async () => void await untilIdle(() => sumOfCpu(first.cpuMs(), second.cpuMs()));
    const text = benchMarkdown(characters);
    for (const build of builds) await build.turn(benchMarkdown(20_000), PACES[0] as Pace, END_MARKER, { beforePrompt: atRest });
    for (const pace of PACES) {
      const turns: [CodeServerTurn[], CodeServerTurn[]] = [[], []];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? [0, 1] as const : [1, 0] as const;
        for (const side of order) turns[side].push(await builds[side]!.turn(text, pace, END_MARKER, { beforePrompt: atRest, probeFrames }));
        console.error(`  ${pace.label}, round ${round + 1}/${rounds}${order[0] === 1 ? ' (B first)' : ''}: A ${ms(turns[0].at(-1)!.ms)}, B ${ms(turns[1].at(-1)!.ms)}`);
      }
      console.log(`${pace.label}, ${characters} characters, ${rounds} alternated rounds:`);
      console.log(describe('A', turns[0]));
      console.log(describe('B', turns[1]));
      console.log(`  B / A per round (min / median / max): time ${ratios(pairedRatios(turns[1].map((turn) => turn.ms), turns[0].map((turn) => turn.ms)))}, `
        + `Tandem-side CPU ${ratios(pairedRatios(turns[1].map(tandemCpu), turns[0].map(tandemCpu)))}`);
    }
  } finally {
    for (const build of builds) await build.close();
    await model.close();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
