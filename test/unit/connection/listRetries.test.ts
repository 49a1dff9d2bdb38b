import * as assert from 'node:assert/strict';
import { connect, disposeConnections } from '../support/connections';
import { fixture, stdioDefinition, waitFor } from '../support/fixtures';

describe('lists that fail at start', function () {
  this.timeout(30_000);
  afterEach(disposeConnections);

  it('asks again for a tools/list that failed at start, and says why the list is empty meanwhile', async () => {
    const { connection, log } = connect(
      stdioDefinition('warming', fixture('legacyStdio'), { args: ['--fail-tools-list', '1'] }),
    );
    await connection.start();
    assert.equal(connection.snapshot().status, 'running');
    assert.deepEqual(connection.snapshot().tools, []);
    assert.match(connection.snapshot().listProblems?.['tools/list'] ?? '', /fixture: tools are not ready yet/);
    await waitFor('the tools after a retry', () => connection.snapshot().tools.length > 0, 10_000);
    assert.equal(connection.snapshot().listProblems, undefined);
    assert.match(log.text(), /tools\/list succeeded on attempt 2\./);
  });

  it('gives up after a few tries, keeping the reason in view', async () => {
    const { connection, log } = connect(
      stdioDefinition('broken-list', fixture('legacyStdio'), { args: ['--fail-tools-list', '99'] }),
    );
    await connection.start();
    await waitFor('the last try', () => /tools\/list failed 4 times; Refresh asks again\./.test(log.text()), 15_000);
    assert.match(connection.snapshot().listProblems?.['tools/list'] ?? '', /fixture: tools are not ready yet/);
    assert.equal(connection.snapshot().status, 'running');
  });

  it('reads "Method not found" for resources/templates/list as no templates, not as a failed list', async () => {
    // Many servers declare resources and answer only resources/list and resources/read.
    const { connection, log } = connect(
      stdioDefinition('no-templates', fixture('legacyStdio'), { args: ['--no-templates-method'] }),
    );
    await connection.start();
    const snapshot = connection.snapshot();
    assert.equal(snapshot.status, 'running');
    assert.ok(snapshot.resources.length > 0, 'its resources are listed');
    assert.deepEqual(snapshot.resourceTemplates, []);
    assert.equal(snapshot.listProblems, undefined);
    assert.match(log.text(), /The server has no resources\/templates\/list method: it offers no resource templates\./);
  });
});
