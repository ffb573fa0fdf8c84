import {
  appendFileSync,
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentDigest, describeReplaceFailure, type FileReplacement, type ReplaceOutcome, removeLeftovers, replaceFiles } from '../../src/files/write-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kurel-write-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (file: string) => join(dir, file);
const read = (file: string) => readFileSync(at(file), 'utf8');
/** A file written now, and its replacement as a run that read it would ask for. */
function replacement(file: string, before: string, after: string): FileReplacement {
  writeFileSync(at(file), before);
  return { file, path: at(file), readDigest: contentDigest(Buffer.from(before)), content: after };
}
const temporaries = () => readdirSync(dir, { recursive: true }).filter((name) => String(name).includes('.kurel-tmp-'));
const failure = (outcome: ReplaceOutcome) => {
  if (outcome.ok) throw new Error('expected a failure');
  return outcome;
};
const failingRenameOf = (target: string) => (from: string, to: string) => {
  if (to === at(target)) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  return renameReal(from, to);
};
const { renameSync: renameReal } = await import('node:fs');

describe('replaceFiles', () => {
  it('replaces every file and leaves no temporary file', () => {
    const files = [replacement('a.yaml', 'a: 1\n', 'a: 2\n'), replacement('b.yaml', 'b: 1\n', 'b: 2\n')];
    expect(replaceFiles(files)).toEqual({ ok: true });
    expect([read('a.yaml'), read('b.yaml')]).toEqual(['a: 2\n', 'b: 2\n']);
    expect(temporaries()).toEqual([]);
  });

  it('refuses a file edited after it was read, keeps the edit, and puts back the file replaced before it (issue 25 row 4)', () => {
    const files = [replacement('a.yaml', 'a: 1\n', 'a: 2\n'), replacement('b.yaml', 'b: 1\n', 'b: 2\n')];
    const outcome = replaceFiles(files, {
      beforeCheck: (file) => {
        if (file.file === 'b.yaml') appendFileSync(at('b.yaml'), '# an edit\n');
      },
    });
    expect(outcome).toEqual({ ok: false, kind: 'changed', files: ['b.yaml'], unrestored: [] });
    expect([read('a.yaml'), read('b.yaml')]).toEqual(['a: 1\n', 'b: 1\n# an edit\n']);
    expect(temporaries()).toEqual([]);
    expect(describeReplaceFailure(failure(outcome), 'kurel migrate')).toEqual([
      { file: 'b.yaml', message: 'b.yaml changed after kurel read it, so it was not replaced; nothing was written: run kurel migrate again' },
    ]);
  });

  it('refuses a file removed after it was read, and one created after kurel found none', () => {
    const gone = replacement('a.yaml', 'a: 1\n', 'a: 2\n');
    rmSync(at('a.yaml'));
    expect(replaceFiles([gone])).toEqual({ ok: false, kind: 'changed', files: ['a.yaml'], unrestored: [] });
    const created: FileReplacement = { file: 'new.yaml', path: at('new.yaml'), readDigest: null, content: 'x: 1\n' };
    writeFileSync(at('new.yaml'), 'mine\n');
    expect(replaceFiles([created])).toEqual({ ok: false, kind: 'changed', files: ['new.yaml'], unrestored: [] });
    expect(read('new.yaml')).toBe('mine\n');
  });

  it('creates a file that was not there, with the mode the umask gives', () => {
    const created: FileReplacement = { file: 'new.yaml', path: at('new.yaml'), readDigest: null, content: 'x: 1\n' };
    expect(replaceFiles([created])).toEqual({ ok: true });
    expect(read('new.yaml')).toBe('x: 1\n');
    expect(statSync(at('new.yaml')).mode & 0o777).toBe(0o666 & ~process.umask());
  });

  it('puts back every file replaced before a rename that fails, and names the file (issue 25 row 5)', () => {
    const files = [replacement('a.yaml', 'a: 1\n', 'a: 2\n'), replacement('b.yaml', 'b: 1\n', 'b: 2\n'), replacement('c.yaml', 'c: 1\n', 'c: 2\n')];
    const outcome = replaceFiles(files, { rename: failingRenameOf('b.yaml') });
    expect(outcome).toEqual({
      ok: false,
      kind: 'failed',
      file: 'b.yaml',
      reason: 'permission denied (EACCES)',
      unrestored: [],
      notWritten: ['a.yaml', 'b.yaml', 'c.yaml'],
    });
    expect([read('a.yaml'), read('b.yaml'), read('c.yaml')]).toEqual(['a: 1\n', 'b: 1\n', 'c: 1\n']);
    expect(temporaries()).toEqual([]);
    expect(describeReplaceFailure(failure(outcome), 'kurel migrate')).toEqual([
      { file: 'b.yaml', message: 'cannot replace b.yaml: permission denied (EACCES); nothing was written' },
    ]);
  });

  it('names what stayed written when putting a file back fails too', () => {
    const files = [replacement('a.yaml', 'a: 1\n', 'a: 2\n'), replacement('b.yaml', 'b: 1\n', 'b: 2\n'), replacement('c.yaml', 'c: 1\n', 'c: 2\n')];
    let renames = 0;
    const outcome = replaceFiles(files, {
      rename: (from, to) => {
        renames += 1;
        // The first rename replaces a.yaml; every later one fails, the rollback's too.
        if (renames > 1) throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
        renameReal(from, to);
      },
    });
    expect(outcome).toEqual({
      ok: false,
      kind: 'failed',
      file: 'b.yaml',
      reason: 'read-only file system (EROFS)',
      unrestored: [{ file: 'a.yaml', reason: 'read-only file system (EROFS)' }],
      notWritten: ['b.yaml', 'c.yaml'],
    });
    expect([read('a.yaml'), read('b.yaml'), read('c.yaml')]).toEqual(['a: 2\n', 'b: 1\n', 'c: 1\n']);
    expect(temporaries()).toEqual([]);
    expect(describeReplaceFailure(failure(outcome), 'kurel migrate')).toEqual([
      { file: 'b.yaml', message: 'cannot replace b.yaml: read-only file system (EROFS); not written: c.yaml and b.yaml; written and not restored: a.yaml' },
      { file: 'a.yaml', message: 'a.yaml was replaced and its old content could not be put back (read-only file system (EROFS)); it holds the new content' },
    ]);
  });

  it('keeps mode 600, the owner and the group', () => {
    const file = replacement('secret.yaml', 'a: 1\n', 'a: 2\n');
    chmodSync(at('secret.yaml'), 0o600);
    if (process.getuid?.() === 0) chownSync(at('secret.yaml'), 1234, 5678);
    expect(replaceFiles([file])).toEqual({ ok: true });
    const info = statSync(at('secret.yaml'));
    expect(info.mode & 0o7777).toBe(0o600);
    if (process.getuid?.() === 0) expect([info.uid, info.gid]).toEqual([1234, 5678]);
    expect(read('secret.yaml')).toBe('a: 2\n');
  });

  it('writes through a symbolic link to its target and keeps the link (issue 25 row 11)', () => {
    mkdirSync(at('real'));
    const file = replacement('real/kurel.lock.yaml', 'a: 1\n', 'a: 2\n');
    symlinkSync('real/kurel.lock.yaml', at('kurel.lock.yaml'));
    expect(replaceFiles([{ ...file, file: 'kurel.lock.yaml', path: at('kurel.lock.yaml') }])).toEqual({ ok: true });
    expect(lstatSync(at('kurel.lock.yaml')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(at('kurel.lock.yaml'))).toBe('real/kurel.lock.yaml');
    expect(read('real/kurel.lock.yaml')).toBe('a: 2\n');
    expect(temporaries()).toEqual([]);
  });

  it('creates the file a dangling symbolic link names', () => {
    mkdirSync(at('real'));
    symlinkSync('real/kurel.lock.yaml', at('kurel.lock.yaml'));
    expect(replaceFiles([{ file: 'kurel.lock.yaml', path: at('kurel.lock.yaml'), readDigest: null, content: 'a: 1\n' }])).toEqual({ ok: true });
    expect(lstatSync(at('kurel.lock.yaml')).isSymbolicLink()).toBe(true);
    expect(read('real/kurel.lock.yaml')).toBe('a: 1\n');
  });

  it('refuses a file with more than one hard link, writing nothing', () => {
    const files = [replacement('a.yaml', 'a: 1\n', 'a: 2\n'), replacement('b.yaml', 'b: 1\n', 'b: 2\n')];
    linkSync(at('b.yaml'), at('b-again.yaml'));
    const outcome = replaceFiles(files);
    expect(describeReplaceFailure(failure(outcome), 'kurel migrate')).toEqual([
      {
        file: 'b.yaml',
        message: 'cannot replace b.yaml: it has 2 hard links, and replacing it would split them; give it one name and run again; nothing was written',
      },
    ]);
    expect([read('a.yaml'), read('b.yaml'), read('b-again.yaml')]).toEqual(['a: 1\n', 'b: 1\n', 'b: 1\n']);
    expect(temporaries()).toEqual([]);
  });

  it('removes the temporary files of a killed run whose process is gone, and only those (issue 25 row 6)', () => {
    const deadPid = 4194305; // above Linux's largest process id
    writeFileSync(at(`.kurel-tmp-${deadPid}-0-a.yaml`), 'half');
    writeFileSync(at(`.kurel-tmp-${process.ppid}-0-a.yaml`), 'a live run');
    writeFileSync(at('.kurel-tmp-notes'), 'not ours');
    const file = replacement('a.yaml', 'a: 1\n', 'a: 2\n');
    expect(replaceFiles([file])).toEqual({ ok: true });
    expect(readdirSync(dir).sort()).toEqual([`.kurel-tmp-${process.ppid}-0-a.yaml`, '.kurel-tmp-notes', 'a.yaml']);
    removeLeftovers(at('no-such-folder'));
  });

  it('leaves folders, links and locks it did not write alone, and names them (issue 36 row 5)', () => {
    const deadPid = 4194305;
    mkdirSync(at(`.kurel-tmp-${deadPid}-0-x`));
    symlinkSync('a.yaml', at(`.kurel-tmp-${deadPid}-1-y`));
    writeFileSync(at(`.kurel-tmp-lock-b.yaml`), 'not a process id\n');
    writeFileSync(at(`.kurel-tmp-lock-c.yaml`), `${deadPid}\n`);
    const file = replacement('a.yaml', 'a: 1\n', 'a: 2\n');
    expect(replaceFiles([{ ...file, file: 'here/a.yaml' }])).toEqual({
      ok: true,
      notes: [
        { path: 'here/.kurel-tmp-4194305-0-x', message: 'left here/.kurel-tmp-4194305-0-x alone: a folder, not a temporary file kurel wrote' },
        { path: 'here/.kurel-tmp-4194305-1-y', message: 'left here/.kurel-tmp-4194305-1-y alone: a symbolic link, not a temporary file kurel wrote' },
        { path: 'here/.kurel-tmp-lock-b.yaml', message: 'left here/.kurel-tmp-lock-b.yaml alone: a file that holds no process id, not a lock kurel wrote' },
      ],
    });
    expect(read('a.yaml')).toBe('a: 2\n');
    // The lock of a run that is gone is removed with the other leftovers.
    expect(readdirSync(dir).sort()).toEqual([`.kurel-tmp-${deadPid}-0-x`, `.kurel-tmp-${deadPid}-1-y`, '.kurel-tmp-lock-b.yaml', 'a.yaml']);
  });

  it('never loses the write of a second run that comes between its compare and its rename (issue 36 row 4)', () => {
    const first = replacement('a.yaml', 'a: 1\n', 'a: 2\n');
    const second: FileReplacement = { ...first, content: 'a: 3\n' };
    let during: ReplaceOutcome | undefined;
    const outcome = replaceFiles([first], {
      rename: (from, to) => {
        // Another writer that read the same bytes tries to replace the file in the window.
        during ??= replaceFiles([second], { lockWaitMs: 0 });
        renameReal(from, to);
      },
    });
    expect(outcome).toEqual({ ok: true });
    expect(during).toEqual({
      ok: false,
      kind: 'failed',
      file: 'a.yaml',
      reason: `another kurel run (process ${process.pid}) is writing it; run again when it is over, or remove .kurel-tmp-lock-a.yaml if no such run is left`,
      unrestored: [],
      notWritten: ['a.yaml'],
    });
    expect(read('a.yaml')).toBe('a: 2\n');
    expect(temporaries()).toEqual([]);
    // Once the first is over, the second compares, and refuses a file that changed.
    expect(replaceFiles([second])).toEqual({ ok: false, kind: 'changed', files: ['a.yaml'], unrestored: [] });
  });

  it('breaks the lock of a run that is gone, and refuses a lock in the way that is not one', () => {
    writeFileSync(at('.kurel-tmp-lock-a.yaml'), '4194305\n');
    const file = replacement('a.yaml', 'a: 1\n', 'a: 2\n');
    expect(replaceFiles([file], { locked: () => expect(readFileSync(at('.kurel-tmp-lock-a.yaml'), 'utf8')).toBe(`${process.pid}\n`) })).toEqual({
      ok: true,
    });
    expect(readdirSync(dir)).toEqual(['a.yaml']);
    mkdirSync(at('.kurel-tmp-lock-b.yaml'));
    const blocked = replacement('b.yaml', 'b: 1\n', 'b: 2\n');
    expect(replaceFiles([blocked])).toMatchObject({
      ok: false,
      kind: 'failed',
      file: 'b.yaml',
      reason: '.kurel-tmp-lock-b.yaml is in the way of its lock: a folder; remove it and run again',
    });
    expect(read('b.yaml')).toBe('b: 1\n');
  });

  it('leaves every file old or every file new (but those it names), and no temporary file, whichever rename fails or file changes', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.option(fc.nat(5)), fc.option(fc.nat(5)), (count, failAt, editAt) => {
        for (const name of readdirSync(dir)) rmSync(at(name), { force: true });
        const names = Array.from({ length: count }, (_, i) => `f${i}.yaml`);
        const files = names.map((name) => replacement(name, `${name}: old\n`, `${name}: new\n`));
        let renames = 0;
        let edited: string | undefined;
        let failed = false;
        const outcome = replaceFiles(files, {
          beforeCheck: (file) => {
            if (editAt === null || file.file !== names[editAt]) return;
            appendFileSync(at(file.file), '# edit\n');
            edited = file.file;
          },
          rename: (from, to) => {
            if (failAt !== null && renames++ === failAt) {
              failed = true;
              throw Object.assign(new Error('EIO'), { code: 'EIO' });
            }
            renameReal(from, to);
          },
        });
        const contents = names.map((name) => read(name));
        if (outcome.ok) expect(contents).toEqual(names.map((name) => `${name}: new\n`));
        else {
          // Only a file whose rollback rename failed stays new, and the outcome names it.
          const left = new Set(outcome.unrestored.map((u) => u.file));
          expect(contents).toEqual(names.map((name) => (left.has(name) ? `${name}: new\n` : `${name}: old\n${name === edited ? '# edit\n' : ''}`)));
        }
        expect(outcome.ok).toBe(!failed && edited === undefined);
        expect(temporaries()).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
