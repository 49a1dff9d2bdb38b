import * as assert from 'node:assert/strict';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/client';
import {
  ElicitationRouter,
  type ElicitationPort,
  type FormElicitation,
  type UrlElicitation,
} from '../../../src/core/elicitation/elicitationRouter';
import {
  EARLY_COMPLETION_MEMORY_MS,
  EARLY_COMPLETIONS_PER_SERVER,
  EarlyCompletions,
} from '../../../src/core/elicitation/earlyCompletions';
import { restrictedSchemaProblem } from '../../../src/core/elicitation/restrictedSchema';
import { inspectUrl } from '../../../src/core/elicitation/urlSafety';
import { EVERYTHING, fixture } from '../support/fixtures';
import { entries, harness, hosts, legacy, modern, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

const text = (result: CallToolResult) => result.content.map((c) => ('text' in c ? c.text : '')).join('\n');

describe('elicitation: the restricted schema', () => {
  it('accepts every kind of field the spec allows', () => {
    assert.equal(
      restrictedSchemaProblem({
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 9, pattern: '^a' },
          email: { type: 'string', format: 'email' },
          when: { type: 'string', format: 'date-time' },
          n: { type: 'integer', minimum: 1, maximum: 3 },
          x: { type: 'number' },
          ok: { type: 'boolean', default: true },
          pick: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
          titled: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
          many: { type: 'array', items: { type: 'string', enum: ['a'] }, minItems: 1 },
          manyTitled: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
        },
        required: ['name'],
      }),
      undefined,
    );
  });

  it('names the property and what breaks the subset', () => {
    assert.equal(
      restrictedSchemaProblem({ type: 'array' }),
      'the requested schema must be an object schema ("type": "object")',
    );
    assert.equal(
      restrictedSchemaProblem({ type: 'object', properties: { a: { type: 'object' } } }),
      'property "a" has type "object" (allowed: string, number, integer, boolean, or an array of enum values)',
    );
    assert.equal(
      restrictedSchemaProblem({ type: 'object', properties: { a: { type: 'string', format: 'ipv4' } } }),
      'property "a" has format "ipv4" (allowed: email, uri, date, date-time)',
    );
    assert.equal(
      restrictedSchemaProblem({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } }),
      'property "a" is an array whose items are not an enum of strings (only multi-select enums are allowed)',
    );
    assert.equal(
      restrictedSchemaProblem({ type: 'object', properties: {}, required: ['ghost'] }),
      '"required" must list property names',
    );
  });
});

describe('elicitation: URL safety checks', () => {
  it('passes a plain https URL and shows its host', () => {
    assert.deepEqual(inspectUrl('https://login.example.com/start?x=1'), {
      url: 'https://login.example.com/start?x=1',
      host: 'login.example.com',
      unicodeHost: undefined,
      warnings: [],
    });
  });

  it('warns about http (but not on loopback), user info, IP addresses', () => {
    assert.match(inspectUrl('http://example.com/').warnings.join(), /not encrypted/);
    assert.deepEqual(inspectUrl('http://127.0.0.1:8080/cb').warnings, []);
    assert.match(
      inspectUrl('https://bank.com@evil.example/').warnings.join(),
      /user name before the host \("bank.com@…"\): the real destination is evil.example/,
    );
    assert.match(inspectUrl('https://93.184.216.34/').warnings.join(), /bare IP address/);
  });

  it('shows punycode hosts in both forms and flags mixed alphabets', () => {
    const spoof = inspectUrl('https://xn--pple-43d.com/login'); // "аpple.com" with a Cyrillic а
    assert.equal(spoof.host, 'xn--pple-43d.com');
    assert.equal(spoof.unicodeHost, 'аpple.com');
    assert.match(spoof.warnings.join('\n'), /internationalised name: it reads "аpple.com" but is "xn--pple-43d.com"/);
    assert.match(spoof.warnings.join('\n'), /"аpple" mixes letters from different alphabets \(Latin, Cyrillic\)/);
  });

  it('refuses what is not an http(s) URL', () => {
    assert.equal(
      inspectUrl('javascript:alert(1)').refusal,
      'it uses javascript:, and only http and https links are opened',
    );
    assert.equal(inspectUrl('not a url').refusal, 'it is not a valid URL');
  });
});

/** A scripted user for elicitation that records what it was shown. */
function scriptedUser(answers: {
  form?: (request: FormElicitation) => ElicitResult | Promise<ElicitResult>;
  url?: (request: UrlElicitation) => 'accept' | 'decline' | 'cancel' | Promise<'accept' | 'decline' | 'cancel'>;
  browser?: () => Promise<'retry' | 'cancel'>;
}) {
  const shown = { forms: [] as FormElicitation[], urls: [] as UrlElicitation[], waits: [] as AbortSignal[] };
  const port: ElicitationPort = {
    askForm: async (request) => (
      shown.forms.push(request),
      (answers.form ?? (() => assert.fail('no form expected')))(request)
    ),
    askUrl: async (request) => (
      shown.urls.push(request),
      (answers.url ?? (() => assert.fail('no URL expected')))(request)
    ),
    awaitBrowser: (_serverId, _pending, signal) => (
      shown.waits.push(signal),
      answers.browser ? answers.browser() : new Promise<never>(() => undefined)
    ),
  };
  return { shown, port };
}

async function setup(user: ReturnType<typeof scriptedUser>, server: Record<string, unknown>, perMinute = 30) {
  const router = new ElicitationRouter(user.port, () => perMinute);
  const { host } = harness({ elicitation: router });
  hosts.push(host);
  await host.applySettings(entries({ ev: server }));
  await running(host, 'ev');
  return { host, router };
}

const everything = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
const fixtureServer = (script: 'legacyStdio' | 'modernStdio') =>
  (script === 'legacyStdio' ? legacy : modern)({ args: [fixture(script), '--elicitation-tools'] });

describe('elicitation: a completion that arrives before the error listing it', () => {
  const login = (elicitationId: string) => ({
    mode: 'url' as const,
    elicitationId,
    url: 'https://login.example.com/start',
    message: 'Sign in.',
  });

  it('counts when the error comes next, so no "finish in your browser" notice is shown', async () => {
    const user = scriptedUser({ url: () => 'accept' });
    const router = new ElicitationRouter(user.port);
    router.complete('s', 'login-1'); // read in the same chunk as the -32042, handled first
    assert.equal(await router.satisfy('s', [login('login-1')], new AbortController().signal), true);
    assert.equal(user.shown.urls.length, 1, 'the user still consents before the call is retried');
    assert.equal(user.shown.waits.length, 0);
  });

  it('counts once, only for its own server and id', async () => {
    const user = scriptedUser({ url: () => 'accept', browser: async () => 'cancel' });
    const router = new ElicitationRouter(user.port);
    router.complete('s', 'login-1');
    assert.equal(
      await router.satisfy('other', [login('login-1')], new AbortController().signal),
      false,
      'another server with the same id waits',
    );
    assert.equal(
      await router.satisfy('s', [login('login-2')], new AbortController().signal),
      false,
      'another id waits',
    );
    assert.equal(await router.satisfy('s', [login('login-1')], new AbortController().signal), true);
    assert.equal(
      await router.satisfy('s', [login('login-1')], new AbortController().signal),
      false,
      'a completion is used up once it counted',
    );
    assert.equal(
      user.shown.waits.length,
      3,
      'the user was asked to finish in the browser each time it had not counted',
    );
  });

  it('is forgotten after a minute, and at most 32 are kept per server', () => {
    let now = 0;
    const early = new EarlyCompletions(() => now);
    early.remember('s', 'old');
    now = EARLY_COMPLETION_MEMORY_MS - 1;
    early.remember('s', 'recent');
    now = EARLY_COMPLETION_MEMORY_MS;
    assert.equal(early.take('s', 'old'), false, 'a minute old');
    assert.equal(early.take('s', 'recent'), true);
    for (let i = 0; i <= EARLY_COMPLETIONS_PER_SERVER; i++) early.remember('s', `id-${i}`);
    assert.equal(early.take('s', 'id-0'), false, 'the oldest went first');
    assert.equal(early.take('s', 'id-1'), true);
    assert.equal(early.take('s', `id-${EARLY_COMPLETIONS_PER_SERVER}`), true);
  });
});

describe('ElicitationRouter with real servers', function () {
  this.timeout(30_000);

  it("shows server-everything's whole form and returns what the user submitted", async () => {
    const user = scriptedUser({
      form: () => ({
        action: 'accept',
        content: {
          name: 'Ada',
          check: true,
          email: 'ada@example.com',
          integer: 7,
          untitledMultipleSelectEnum: ['Piano'],
        },
      }),
    });
    const { host } = await setup(user, everything);
    const result = text(await host.callTool('ev', 'trigger-elicitation-request', {}));
    assert.match(result, /User provided the requested information/);
    assert.match(result, /- Name: Ada/);
    assert.match(result, /- Favorite Integer: 7/);
    const [form] = user.shown.forms;
    assert.equal(form.message, 'Please provide inputs for the following fields:');
    assert.deepEqual(
      form.form.fields.map((f) => [f.path, f.kind]),
      [
        ['/name', 'string'],
        ['/check', 'boolean'],
        ['/firstLine', 'string'],
        ['/email', 'string'],
        ['/homepage', 'string'],
        ['/birthdate', 'string'],
        ['/integer', 'integer'],
        ['/number', 'number'],
        ['/untitledSingleSelectEnum', 'choice'],
        ['/untitledMultipleSelectEnum', 'multiChoice'],
        ['/titledSingleSelectEnum', 'choice'],
        ['/titledMultipleSelectEnum', 'multiChoice'],
        ['/legacyTitledEnum', 'choice'],
      ],
    );
    assert.deepEqual(
      form.validate({}).map((p) => [p.path, p.message]),
      [['/name', 'Required.']],
    );
    assert.deepEqual(
      form.validate({ name: 'x', integer: 500 }).map((p) => [p.path, p.message]),
      [['/integer', 'Must be at most 100.']],
    );
  });

  it('returns decline and cancel as the user chose', async () => {
    let next: ElicitResult = { action: 'decline' };
    const { host } = await setup(scriptedUser({ form: () => next }), everything);
    assert.match(
      text(await host.callTool('ev', 'trigger-elicitation-request', {})),
      /User declined to provide the requested information/,
    );
    next = { action: 'cancel' };
    assert.match(
      text(await host.callTool('ev', 'trigger-elicitation-request', {})),
      /User cancelled the elicitation dialog/,
    );
  });

  it('checks an answer against the schema again before it leaves the host', async () => {
    const { host } = await setup(
      scriptedUser({ form: () => ({ action: 'accept', content: { name: 'A' } }) }),
      fixtureServer('legacyStdio'),
    );
    assert.match(
      text(await host.callTool('ev', 'ask', {})),
      /elicitation failed: .*The answer does not match the requested schema: \/name Must be at least 2 characters/,
    );
  });

  it('refuses a schema outside the restricted subset with -32602 before any form opens', async () => {
    // The SDK's wire schema catches it first (its message lists the schema errors); the host's
    // own check gives the same answer in words for anything that gets past it.
    const { host } = await setup(scriptedUser({}), fixtureServer('legacyStdio'));
    assert.match(
      text(await host.callTool('ev', 'ask', { nested: true })),
      /elicitation failed: .*Invalid elicitation request/,
    );
    const direct = new ElicitationRouter(scriptedUser({}).port);
    await assert.rejects(
      direct.handle(
        'srv',
        {
          mode: 'form',
          message: 'm',
          requestedSchema: { type: 'object', properties: { address: { type: 'object' } } },
        } as never,
        new AbortController().signal,
      ),
      (e: Error & { code?: number }) =>
        e.code === -32602 &&
        /MCP server "srv" asked for input with a schema outside the spec's restricted subset: property "address" has type "object"/.test(
          e.message,
        ),
    );
  });

  it('answers a form asked through input_required (2026-07-28)', async () => {
    const user = scriptedUser({
      form: () => ({ action: 'accept', content: { name: 'Grace', color: 'blue', subscribe: false } }),
    });
    const { host } = await setup(user, fixtureServer('modernStdio'));
    assert.equal(host.server('ev')!.protocolVersion, '2026-07-28');
    assert.deepEqual(JSON.parse(text(await host.callTool('ev', 'ask', {}))), {
      action: 'accept',
      content: { name: 'Grace', color: 'blue', subscribe: false },
    });
    assert.equal(user.shown.forms[0].message, 'Tell us about you. See https://example.com/why (not a link).');
  });

  it("asks consent for a URL, and answers with the user's choice", async () => {
    const user = scriptedUser({ url: () => 'accept' });
    const { host } = await setup(user, everything);
    assert.match(
      text(
        await host.callTool('ev', 'trigger-url-elicitation', {
          url: 'https://example.com/oauth',
          message: 'Please sign in.',
        }),
      ),
      /"action": "accept"/,
    );
    assert.deepEqual(
      [user.shown.urls[0].message, user.shown.urls[0].inspection.host, user.shown.urls[0].inspection.url],
      ['Please sign in.', 'example.com', 'https://example.com/oauth'],
    );
  });

  it('on -32042, asks consent, waits for the completion notification, and retries the call', async () => {
    const user = scriptedUser({ url: () => 'accept' });
    const { host, router } = await setup(user, fixtureServer('legacyStdio'));
    assert.equal(text(await host.callTool('ev', 'needs-login', { completeAfterMs: 300 })), 'signed in, hello');
    assert.equal(user.shown.urls[0].inspection.url, 'https://login.example.com/start?session=fixture');
    assert.equal(
      user.shown.waits[0].aborted,
      true,
      'the "finish in your browser" notice is closed once the server reports completion',
    );
    router.complete('ev', 'login-1'); // a late or repeated completion is ignored
    router.complete('ev', 'unknown');
  });

  it('on -32042, a completion that arrives while the user is still reading the consent counts', async () => {
    const user = scriptedUser({ url: () => new Promise((resolve) => setTimeout(() => resolve('accept'), 800)) });
    const { host } = await setup(user, fixtureServer('legacyStdio'));
    assert.equal(text(await host.callTool('ev', 'needs-login', { completeAfterMs: 0 })), 'signed in, hello');
    assert.equal(
      user.shown.waits.length,
      0,
      'no "finish in your browser" notice for a flow the server already reported done',
    );
  });

  it('on -32042 without a completion notification, retries when the user presses Retry; a declined consent fails the call', async () => {
    const retry = scriptedUser({ url: () => 'accept', browser: async () => 'retry' });
    const { host } = await setup(retry, everything);
    assert.match(
      text(await host.callTool('ev', 'trigger-url-elicitation', { url: 'https://example.com/next', errorPath: true })),
      /"action": "accept"/,
    );
    assert.equal(retry.shown.urls[0].inspection.host, 'modelcontextprotocol.io', 'the prerequisite the error listed');
    await host.dispose();
    const declined = await setup(scriptedUser({ url: () => 'decline' }), fixtureServer('legacyStdio'));
    await assert.rejects(declined.host.callTool('ev', 'needs-login', {}), /Sign-in required/);
  });

  it('in 2026-07-28, a URL elicitation asked through input_required is consented to and the call completes', async () => {
    const user = scriptedUser({ url: () => 'accept' });
    const { host } = await setup(user, fixtureServer('modernStdio'));
    assert.equal(text(await host.callTool('ev', 'needs-login', {})), 'signed in, hello');
    assert.equal(user.shown.urls[0].inspection.url, 'https://login.example.com/start?session=modern');
    const declined = scriptedUser({ url: () => 'decline' });
    await host.dispose();
    const again = await setup(declined, fixtureServer('modernStdio'));
    assert.equal(text(await again.host.callTool('ev', 'needs-login', {})), 'not signed in (decline)');
  });

  it('refuses requests over the per-server limit with a message that says when to retry', async () => {
    const { host } = await setup(scriptedUser({ form: () => ({ action: 'decline' }) }), everything, 1);
    assert.match(text(await host.callTool('ev', 'trigger-elicitation-request', {})), /declined/);
    assert.match(
      text(await host.callTool('ev', 'trigger-elicitation-request', {})),
      /Elicitation rate limit reached for MCP server "ev": at most 1 requests for input per minute/,
    );
  });
});
