import * as assert from 'node:assert/strict';
import { inspectorAddress, isNodeCommand, withInspector } from '../../../src/core/connection/devInspector';

describe('dev mode: the Node inspector', () => {
  it('adds --inspect on a loopback port the system picks, to node only, and never twice', () => {
    assert.deepEqual(withInspector('/usr/local/bin/node', ['dist/index.js']), [
      '--inspect=127.0.0.1:0',
      'dist/index.js',
    ]);
    assert.deepEqual(withInspector('C:\\Program Files\\nodejs\\node.exe', ['a.js']), ['--inspect=127.0.0.1:0', 'a.js']);
    assert.deepEqual(withInspector('/usr/bin/python3', ['-m', 'server']), ['-m', 'server']);
    assert.deepEqual(withInspector('node', ['--inspect-brk=9230', 'a.js']), ['--inspect-brk=9230', 'a.js']);
    assert.equal(isNodeCommand('/usr/bin/nodemon'), false);
  });

  it('reads the address from the line Node prints, and nothing else', () => {
    assert.equal(
      inspectorAddress('Debugger listening on ws://127.0.0.1:40123/0f2c3a9e-5b1d-4c7e-9a8b-1234567890ab'),
      'ws://127.0.0.1:40123/0f2c3a9e-5b1d-4c7e-9a8b-1234567890ab',
    );
    assert.equal(inspectorAddress('For help, see: https://nodejs.org/en/docs/inspector'), undefined);
    assert.equal(inspectorAddress('Debugger listening on ws://0.0.0.0:9229/abc'), undefined);
    assert.equal(inspectorAddress('log: Debugger listening on ws://127.0.0.1:1/x'), undefined);
  });
});
