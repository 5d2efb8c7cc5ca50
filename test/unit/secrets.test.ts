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

  test('passwords on command lines: the password goes, and only where that program takes one', () => {
    assert.equal(redactSecrets('curl -u deploy:pw4Xk92 https://x.example'), `curl -u deploy:${REDACTED} https://x.example`);
    assert.equal(redactSecrets('mysql -u root -ppw4Xk92 app'), `mysql -u root -p${REDACTED} app`);
    assert.equal(redactSecrets('sshpass -p pw4Xk92 ssh host'), `sshpass -p ${REDACTED} ssh host`);
    assert.equal(redactSecrets('docker login -u ci -p pw4Xk92 registry.example'), `docker login -u ci -p ${REDACTED} registry.example`);
    assert.equal(redactSecrets('redis-cli -h cache -a pw4Xk92 ping'), `redis-cli -h cache -a ${REDACTED} ping`);
    for (const line of ['mysql -p app', 'docker run -p 8080:80 nginx', 'git push -u origin main', 'echo curl; docker run -u 1000:1000 x', 'tar -a -cf x.tgz src']) assert.equal(redactSecrets(line), line);
  });

  test('a bare AWS secret key: beside its key id, or by how random it looks; git SHAs and long names stay', () => {
    const key = generated(90, 40, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
    assert.equal(redactSecrets(`${key} `), `${REDACTED} `);
    assert.equal(redactSecrets(`AKIAIOSFODNN7EXAMPL3,${key}`), `${REDACTED},${REDACTED}`);
    for (const text of ['9fceb02d0ae598e95dc970b74767f19372d61af8', 'handleUserAccountSettingsChangeEvent1234', 'aws s3 cp 9fceb02d0ae598e95dc970b74767f19372d61af8 .']) assert.equal(redactSecrets(text), text);
    assert.equal(openSecretStart(`key: ${key.slice(0, 12)}`), 5, 'the start of one that is still arriving');
    assert.equal(openSecretStart('an implementa'), null, 'a word cut short is not one');
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
