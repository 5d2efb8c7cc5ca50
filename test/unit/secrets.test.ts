import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isSecretName, openSecretStart, REDACTED, redactPieces, redactSecrets, SecretLines } from '../../src/redaction/secrets';
import { generated, LOOK_ALIKES, SECRET_FORMATS } from '../support/secretFormats';
import { HOSTILE_SECRET_TEXTS } from '../support/slowInputs';

describe('credential matcher', () => {
  for (const format of SECRET_FORMATS) {
    test(`${format.name}: nothing of it is left`, () => {
      const redacted = redactSecrets(`before ${format.text} after`);
      for (const secret of format.secrets) assert.ok(!redacted.includes(secret.slice(0, 8)), `${redacted}`);
      assert.ok(redacted.startsWith('before ') && redacted.endsWith(' after'), redacted);
    });
  }

  test('look-alikes come through unchanged', () => {
    for (const text of LOOK_ALIKES) assert.equal(redactSecrets(text), text);
  });

  test('a name keeps its place; only the value goes', () => {
    assert.equal(redactSecrets('OPENAI_API_KEY=abc123\nNODE_ENV=production'), `OPENAI_API_KEY=${REDACTED}\nNODE_ENV=production`);
    assert.equal(redactSecrets('https://bob:pw12345@db.example.com/app'), `https://bob:${REDACTED}@db.example.com/app`);
    assert.equal(redactSecrets('curl -H "Authorization: Bearer abc123def456"'), `curl -H "Authorization: Bearer ${REDACTED}"`);
    assert.equal(redactSecrets('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----'), `-----BEGIN RSA PRIVATE KEY-----${REDACTED}-----END RSA PRIVATE KEY-----`);
  });

  test('names: secret words anywhere, weak words last, describing words rule them out', () => {
    for (const name of ['OPENAI_API_KEY', 'apiKey', 'x-api-key', 'PGPASSWORD', 'githubToken', 'client_secret', 'KEY', 'SMTP_PASS', 'Authorization']) assert.ok(isSecretName(name), name);
    for (const name of ['KEYBOARD', 'monkey', 'TOKEN_FILE', 'SECRET_NAME', 'max_tokens', 'sessionId', 'key', 'PWD', 'author', 'bypass']) assert.ok(!isSecretName(name), name);
  });

  test('code is not mistaken for settings', () => {
    for (const code of ['previousKey = key;', 'const token = getToken();', 'token=getToken()', 'Unexpected_token: diag(1012, 1)', 'interface A { password: string }']) {
      assert.equal(redactSecrets(code), code);
    }
  });

  test('a key whose BEGIN line is gone is still found above its END line', () => {
    const body = [generated(1, 64, 'ABCabc0123+/'), generated(2, 30, 'ABCabc0123+/')];
    const redacted = redactSecrets(`fatal: bad key\n${body.join('\n')}\n-----END PRIVATE KEY-----\n`);
    assert.equal(redacted, `fatal: bad key\n${REDACTED}-----END PRIVATE KEY-----\n`);
  });

  test('a key cut off before its END line is still a key', () => {
    assert.equal(redactSecrets('-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5'), `-----BEGIN EC PRIVATE KEY-----${REDACTED}`);
  });

  test('pieces redacted together: a credential split between argv words or chunks is found', () => {
    assert.deepEqual(redactPieces(['--password', 'hunter2', '--verbose'], ' '), ['--password', REDACTED, '--verbose']);
    assert.deepEqual(redactPieces(['Authorization:', 'Bearer', 'abc123def456'], ' '), ['Authorization:', 'Bearer', REDACTED]);
    assert.deepEqual(redactPieces(['use ghp_abcdefghij', 'klmnopqrstuvwxyz0123 now'], ''), [`use ${REDACTED}`, `${REDACTED} now`]);
  });

  test('what could begin a credential at the end of a text is located', () => {
    assert.equal(openSecretStart('the key is ghp_ab'), 11);
    assert.equal(openSecretStart('send sk-'), 5);
    assert.equal(openSecretStart('an ordinary sentence ends her'), null);
  });

  test('a private key printed over several log lines is dropped up to its END line', () => {
    const lines = new SecretLines();
    const body = generated(3, 64, 'ABCabc0123+/');
    const shown = ['key: -----BEGIN RSA PRIVATE KEY-----', body, body, '-----END RSA PRIVATE KEY----- done', 'next line'].map((line) => lines.redact(line));
    assert.deepEqual(shown, [`key: -----BEGIN RSA PRIVATE KEY-----${REDACTED}`, REDACTED, REDACTED, `${REDACTED}-----END RSA PRIVATE KEY----- done`, 'next line']);
  });

  // How long each takes (the matcher must stay linear): bench/hostileInputs (secrets.*Ms).
  test('hostile text is scanned to its end: nothing in it is masked, a token after it is', () => {
    const token = `ghp_${generated(7, 36)}`;
    for (const { name, text } of HOSTILE_SECRET_TEXTS) assert.ok(redactSecrets(`${text}\n${token}\n`) === `${text}\n${REDACTED}\n`, name);
  });
});
