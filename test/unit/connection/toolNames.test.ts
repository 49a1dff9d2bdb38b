import * as assert from 'node:assert/strict';
import { modelToolNames, promptCommandName, toolNameProblem } from '../../../src/core/connection/toolNames';

describe('tool names', () => {
  it('accepts names within the spec rules and explains the others', () => {
    for (const name of ['getUser', 'DATA_EXPORT_v2', 'admin.tools.list'])
      assert.equal(toolNameProblem(name), undefined);
    assert.equal(toolNameProblem(''), 'is empty');
    assert.equal(toolNameProblem('x'.repeat(129)), 'is 129 characters long (at most 128)');
    assert.equal(
      toolNameProblem('get user,now'),
      'contains " ", "," (only letters, digits, "_", "-" and "." are expected)',
    );
  });

  it('prefixes model tool names with the server so equal tool names never collide', () => {
    const names = modelToolNames([
      { serverId: 'github', toolName: 'search' },
      { serverId: 'jira', toolName: 'search' },
      { serverId: 'fs', toolName: 'admin.tools.list' },
    ]);
    assert.deepEqual([...names.keys()], ['github_search', 'jira_search', 'fs_admin_tools_list']);
    assert.deepEqual(names.get('jira_search'), { serverId: 'jira', toolName: 'search' });
  });

  it('keeps names apart that only differ in characters a model cannot take, and shortens long ones', () => {
    const names = modelToolNames([
      { serverId: 's', toolName: 'a.b' },
      { serverId: 's', toolName: 'a_b' },
      { serverId: 's', toolName: 'x'.repeat(100) },
    ]);
    const keys = [...names.keys()];
    assert.equal(new Set(keys).size, 3);
    for (const key of keys) assert.match(key, /^[A-Za-z0-9_-]{1,64}$/);
    assert.match(keys[0], /^s_a_b_[0-9a-f]{6}$/);
    assert.notEqual(keys[0], keys[1]);
  });

  it('names prompt slash commands server.prompt with safe characters', () => {
    assert.equal(promptCommandName('everything', 'args-prompt'), 'everything.args-prompt');
    assert.equal(promptCommandName('my server', 'Summarise / Explain'), 'my-server.Summarise-Explain');
  });
});
