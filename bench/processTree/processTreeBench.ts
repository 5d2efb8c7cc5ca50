/**
 * What ending an agent's whole process tree costs the extension host (figures, never pass/fail):
 *
 *   1. One pass over /proc that finds a tree (every process's parent, every environment read
 *      for the tree's mark): wall time, the host's CPU time, the longest stall of its event loop.
 *      Passes run only while a tree is being ended: once at the agent's exit or Stop, then every
 *      100 ms until nothing is left (SIGTERM's grace, at most 1.5 s, and a few SIGKILL rounds).
 *   2. An agent killed with SIGKILL whose three children lead sessions of their own (as Claude
 *      Code's Bash commands do): from the kill until every child is gone, and the host's CPU
 *      time over that span.
 *
 * Alone: `npm run bench -- processTree`.
 */
import { readdirSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { AgentProcess } from '../../src/acp/agentProcess';
import { newTreeMark, treeMembers, treesTracked } from '../../src/util/processTree';
import { isAlive } from '../../test/support/terminalHarness';
import { waitFor } from '../../test/support/waitFor';
import { distribution, single, type Bench, type Figure, type Figures } from '../shared/figures';
import { minMedianMax, ms, table } from '../shared/report';

const AGENT = `
  const { spawn } = require('node:child_process');
  const children = [1, 2, 3].map(() => spawn('sleep', ['1000'], { detached: true, stdio: 'ignore' }).pid);
  console.log(JSON.stringify(children));
  setInterval(() => {}, 1000);
`;

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function scans(runs: number): Promise<{ wall: number[]; cpu: number[]; stall: number[]; processes: number }> {
  const samples = { wall: [] as number[], cpu: [] as number[], stall: [] as number[], processes: 0 };
  const mark = newTreeMark();
  await treeMembers(mark);
  for (let run = 0; run < runs; run++) {
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const cpu = process.cpuUsage();
    const start = performance.now();
    await treeMembers(mark);
    samples.wall.push(performance.now() - start);
    samples.cpu.push(cpuMs(cpu));
    loop.disable();
    samples.stall.push(loop.max / 1e6);
  }
  samples.processes = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).length;
  return samples;
}

async function killedAgent(): Promise<{ endMs: number; cpuMs: number }> {
  const agent = new AgentProcess({ command: process.execPath, args: ['-e', AGENT], env: {}, cwd: process.cwd() });
  let output = '';
  agent.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const children = await waitFor(() => (output.includes(']') ? (JSON.parse(output) as number[]) : undefined), 'the agent\'s children', 15_000);
  const cpu = process.cpuUsage();
  const start = performance.now();
  process.kill(agent.pid ?? 0, 'SIGKILL');
  await waitFor(() => children.every((pid) => !isAlive(pid)) || undefined, 'the children to be gone', 15_000, 2);
  const endMs = performance.now() - start;
  await agent.exited;
  return { endMs, cpuMs: cpuMs(cpu) };
}

export const processTreeBench: Bench = {
  name: 'processTree',
  title: 'Ending an agent\'s process tree',
  async run({ options, progress }) {
    if (!treesTracked) return { section: 'processTree', figures: {}, lines: ['\nNo /proc here: only the agent\'s process group is ended, nothing to measure.'] };
    const runs = options.quick ? 5 : options.runs;
    progress(`processTree: ${runs} passes over /proc`);
    const scan = await scans(runs);
    progress(`processTree: ${runs} agents killed with children in sessions of their own`);
    const ends: { endMs: number; cpuMs: number }[] = [];
    for (let run = 0; run < runs; run++) ends.push(await killedAgent());
    const figures: Figures = {
      'processTree.processes': single(scan.processes, 'count'),
      'processTree.scanMs': distribution(scan.wall, 'ms'),
      'processTree.scanCpuMs': distribution(scan.cpu, 'ms'),
      'processTree.scanStallMs': distribution(scan.stall, 'ms'),
      'processTree.endMs': distribution(ends.map((end) => end.endMs), 'ms'),
      'processTree.endCpuMs': distribution(ends.map((end) => end.cpuMs), 'ms'),
    };
    const row = (label: string, figure: Figure | undefined) => [label, figure ? minMedianMax(figure, ms) : 'n/a'];
    const lines = [
      `\nOne pass over /proc for a tree (${scan.processes} processes on this machine, ${runs} runs; min / median / max)\n`,
      table([{ title: 'measure' }, { title: 'min / median / max', align: 'right' }], [
        row('wall time', figures['processTree.scanMs']),
        row('host CPU time', figures['processTree.scanCpuMs']),
        row('longest event-loop stall during it', figures['processTree.scanStallMs']),
      ]),
      `\nAn agent killed with SIGKILL, three children in sessions of their own (${runs} runs)\n`,
      table([{ title: 'measure' }, { title: 'min / median / max', align: 'right' }], [
        row('kill -> every child gone', figures['processTree.endMs']),
        row('host CPU time over that span', figures['processTree.endCpuMs']),
      ]),
    ];
    return { section: 'processTree', figures, lines };
  },
};
