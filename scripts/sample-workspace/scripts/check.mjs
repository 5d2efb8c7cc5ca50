// The sample project's own check (`npm test`): three house rules over src/, one PASS or FAIL line
// each, printed a moment apart so that a terminal showing output live has something to show.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const src = join(dirname(dirname(fileURLToPath(import.meta.url))), 'src');
const sources = new Map(readdirSync(src).filter((name) => name.endsWith('.ts')).sort().map((name) => [name, readFileSync(join(src, name), 'utf8')]));
const paint = (code, text) => (process.env.NO_COLOR ? text : `\u001b[${code}m${text}\u001b[0m`);

function undocumentedExports() {
  const missing = [];
  for (const [file, text] of sources) {
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const exported = /^export (?:function|const|class) (\w+)/.exec(line);
      if (exported && !(lines[index - 1] ?? '').trim().endsWith('*/')) missing.push(`${file}: ${exported[1]}`);
    });
  }
  return missing;
}

function leftoverTodos() {
  const found = [];
  for (const [file, text] of sources) {
    text.split('\n').forEach((line, index) => {
      if (line.includes('TODO')) found.push(`${file}:${index + 1}`);
    });
  }
  return found;
}

function unusedFiles() {
  const texts = [...sources.values()];
  return [...sources.keys()].filter((file) => file !== 'main.ts' && !texts.some((text) => text.includes(`from './${file.slice(0, -3)}'`)));
}

const rules = [
  ['every export in src/ has a doc comment', undocumentedExports],
  ['no TODO is left in src/', leftoverTodos],
  ['every file in src/ is imported (main.ts is the program)', unusedFiles],
];

console.log(paint('1', `Checking the sample project: ${rules.length} rules`));
let failed = 0;
for (const [rule, problemsOf] of rules) {
  await delay(300);
  const problems = problemsOf();
  if (problems.length > 0) failed++;
  console.log(problems.length === 0 ? `${paint('32', 'PASS')} ${rule}` : `${paint('31', 'FAIL')} ${rule}: ${paint('2', problems.join(', '))}`);
}
await delay(300);
console.log(failed === 0 ? paint('32', `All ${rules.length} rules pass.`) : paint('31', `${failed} of ${rules.length} rules fail.`));
process.exitCode = failed === 0 ? 0 : 1;
