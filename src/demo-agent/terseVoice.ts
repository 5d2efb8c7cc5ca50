import { codeList, echo, filesWith, formGreeting, type TourReport, type Voice } from './voice';

/** "Demo Terse": bullet points, no explanations. */

const THOUGHTS: Record<Parameters<Voice['thought']>[0], string> = {
  chat: 'free-form message. list folder, answer, suggest /tour.',
  tour: 'tour: read, edit x2, create, delete, run check.',
  edit: 'edits only.',
  run: 'run check.',
  plan: 'plan: 4 steps.',
  form: 'form.',
  reset: 'restore originals.',
};

function fileBullets(report: TourReport): string[] {
  const bullets: [string, string[]][] = [
    ['edited', filesWith(report, 'changed')],
    ['new', filesWith(report, 'created')],
    ['deleted (by me, on disk; Undo restores)', filesWith(report, 'deleted')],
    ['rejected', filesWith(report, 'rejected')],
    ['already done (/reset)', filesWith(report, 'unchanged', 'missing')],
  ];
  return bullets.filter(([, files]) => files.length > 0).map(([label, files]) => `- ${label}: ${codeList(files)}`);
}

export const terseVoice: Voice = {
  thought: (topic) => THOUGHTS[topic],

  chat: (request, listing) => [
    "Tandem's demo agent, model Demo Terse. Offline, scripted.",
    '',
    `- you wrote: _${echo(request)}_`,
    listing === null ? '- folder: not listed (declined)' : `- folder: ${listing.length} entries${listing.length > 0 ? `, ${codeList(listing.slice(0, 6))}` : ''}`,
    '- try: /tour, /form, /plan, /run, /reset',
    '',
    '```sh',
    'node scripts/check.mjs',
    '```',
  ].join('\n'),

  report: (report) => {
    const check = report.check;
    const checkLine = !check ? [] : check.ran ? [`- check: "${check.summary}", exit ${check.exitCode ?? '-'}`] : ['- check: skipped, no terminals'];
    return [...fileBullets(report), ...checkLine, '- review: Keep/Undo per hunk, panel or editor'].join('\n');
  },

  plan: () => '4/4 done.',

  form: (answer) => (answer.action === 'accept' && answer.content
    ? `- got: ${echo(JSON.stringify(answer.content))}\n- greeting: ${echo(formGreeting(answer.content))}`
    : `- form ${answer.action === 'decline' ? 'declined' : 'dismissed'}`),

  noForm: () => '- no forms in this client',

  reset: (restored, rejected) => (rejected ? '- reset rejected' : restored.length === 0 ? '- nothing to reset' : `- restored: ${codeList(restored)} (review pending)`),

  refusal: (kind) => (kind === 'tandem' ? '- refused: Tandem repo. use the sample copy (`npm start`).' : '- refused: not the sample workspace.'),
};
