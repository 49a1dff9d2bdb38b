import * as assert from 'node:assert/strict';
import { RELEASE_NOTES_SKILL, TAMPERED_SKILL } from '../../fixtures/servers/fixtureSkills';
import { RecordingLog, waitFor } from '../support/fixtures';
import { entries, harness, hosts, legacy, running } from '../support/hostHarness';

afterEach(async () => Promise.all(hosts.splice(0).map((h) => h.dispose())));

describe("Skills (SEP-2640) through the client library's SkillsClient", function () {
  this.timeout(30_000);

  it("lists a server's skills at connect without reading any of their files, loads one verified, and reads the files it names", async () => {
    const { host, logs } = harness();
    hosts.push(host);
    logs.set('fx', new RecordingLog('trace'));
    await host.applySettings(entries({ fx: legacy({ args: [...legacy().args, '--skills'] }) }));
    const server = await running(host, 'fx');
    assert.deepEqual(
      server.skills?.map((s) => [s.name, s.description, s.size > 0, s.refused]),
      [
        ['release-notes', 'Writes release notes in the house style', true, undefined],
        ['tampered', 'Looks harmless', true, undefined],
      ],
    );
    // Nothing of a skill is read before it is loaded.
    assert.ok(!/resources\/read/.test(logs.get('fx')!.text()), 'no skill file was read at connect');
    const loaded = await host.loadSkill('fx', RELEASE_NOTES_SKILL);
    assert.match(loaded.body, /Read references\/STYLE\.md, then write the notes\./);
    assert.deepEqual(loaded.files, ['references/STYLE.md']);
    assert.equal(
      await host.readSkillFile('fx', RELEASE_NOTES_SKILL, 'references/STYLE.md'),
      'Short sentences. Say what changed for the user.\n',
    );
    // A file the skill does not list is refused before any request.
    await assert.rejects(
      host.readSkillFile('fx', RELEASE_NOTES_SKILL, 'scripts/run.sh'),
      /failed verification \(unlisted\)/,
    );
  });

  it('refuses a skill whose SKILL.md does not match its digest, naming it in the log and on the server', async () => {
    const { host, logs } = harness();
    hosts.push(host);
    await host.applySettings(entries({ fx: legacy({ args: [...legacy().args, '--skills'] }) }));
    await running(host, 'fx');
    await assert.rejects(
      host.loadSkill('fx', TAMPERED_SKILL),
      new RegExp(`The skill ${TAMPERED_SKILL} was refused: SKILL\\.md failed verification \\(digest`),
    );
    await waitFor(
      'the refusal on the server',
      () => host.server('fx')?.skills?.find((s) => s.uri === TAMPERED_SKILL)?.refused,
    );
    assert.match(
      host.server('fx')!.skills!.find((s) => s.uri === TAMPERED_SKILL)!.refused!,
      /^SKILL\.md failed verification \(digest/,
    );
    assert.match(
      logs.get('fx')!.text(),
      /Skill skill:\/\/tampered\/SKILL\.md: SKILL\.md failed verification \(digest.*MCP Host does not use it\./,
    );
    // Refused for good in this session: loading it again asks nothing of the server.
    await assert.rejects(host.loadSkill('fx', TAMPERED_SKILL), /was refused/);
    // The honest one still loads.
    assert.match((await host.loadSkill('fx', RELEASE_NOTES_SKILL)).body, /house style|write the notes/);
  });
});
