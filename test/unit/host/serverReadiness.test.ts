import * as assert from 'node:assert/strict';
import { whenServerRunning } from '../../../src/core/host/serverReadiness';
import { fixture } from '../support/fixtures';
import { entries, harness, hosts, legacy, node } from '../support/hostHarness';

describe('waiting for a server to run (editors restored by a window reload)', () => {
  afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

  it('waits through the first settings and the start, then resolves once the server runs', async () => {
    const { host } = harness();
    hosts.push(host);
    // Asked before any settings are applied, as a restored editor does at window open.
    const waiting = whenServerRunning(host, 'later', 20_000);
    await host.applySettings(entries({ later: legacy() }));
    await waiting;
    assert.equal(host.server('later')!.status, 'running');
  });

  it('fails at once, saying why and what to do, for a server that will not start by itself or is not in settings', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(entries({ manual: legacy({ autoStart: false }), off: legacy({ enabled: false }) }));
    await assert.rejects(
      whenServerRunning(host, 'manual', 20_000),
      /^Error: MCP server "manual" is not running \(stopped\)\. Start it in the MCP Servers view, then try again\.$/,
    );
    await assert.rejects(
      whenServerRunning(host, 'off', 20_000),
      /MCP server "off" is not running \(disabled: disabled in settings/,
    );
    assert.equal(host.server('off')!.held, 'disabled');
    await assert.rejects(whenServerRunning(host, 'gone', 20_000), /There is no MCP server "gone" in settings\./);
  });

  it('waits while the user is asked to allow a workspace server, and resolves once it runs', async () => {
    let waiting: Promise<void> | undefined;
    let heldWhileAsked: string | undefined;
    const { host } = harness({
      consent: () => {
        // The dialog is open: a restored editor of this server asks for it now.
        heldWhileAsked = host.server('repo')?.held;
        waiting = whenServerRunning(host, 'repo', 20_000);
        return ['repo'];
      },
    });
    hosts.push(host);
    await host.applySettings([]);
    await host.applySettings(entries({ repo: legacy() }, 'workspace'));
    assert.equal(heldWhileAsked, 'consent');
    await waiting;
    assert.equal(host.server('repo')!.status, 'running');
    assert.equal(host.server('repo')!.held, undefined);
  });

  it('gives up after its time limit on a server that never finishes starting, and can be cancelled', async () => {
    const { host } = harness();
    hosts.push(host);
    await host.applySettings(
      entries({ silent: { command: node, args: [fixture('silentStdio')], startTimeoutMs: 60_000 } }),
    );
    await assert.rejects(
      whenServerRunning(host, 'silent', 300),
      /MCP server "silent" did not start within 300 ms \(starting\)/,
    );
    const abort = new AbortController();
    const cancelled = whenServerRunning(host, 'silent', 20_000, abort.signal);
    abort.abort();
    await assert.rejects(cancelled, /Waiting for MCP server "silent" was cancelled\./);
  });
});
