import {
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActivateSkillTool } from '../../src/skills/activate-skill';
import { discoverSkills } from '../../src/skills/discover';
import { skillDirs } from '../../src/skills/locations';
import { Workspace } from '../../src/tools/workspace';

/**
 * Issue N, class 3: a project's (or an extension's) skill folder or SKILL.md that is a symlink
 * must not make what it points at readable. Such a skill is refused when it is discovered, and
 * again when it is activated (the link may be swapped in between); the read tools then still
 * refuse the files outside.
 */

const SKILL = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;

let base: string;
let project: string;
let outside: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'kodo-skill-links-')));
  project = join(base, 'project');
  outside = join(base, 'outside');
  env = { HOME: join(base, 'home'), KODO_HOME: join(base, 'home', '.kodo') };
  write(join(outside, 'secret-skill', 'SKILL.md'), SKILL('secret'));
  write(join(outside, 'secret-skill', 'id_rsa'), 'PRIVATE KEY');
  write(join(outside, 'lone', 'SKILL.md'), SKILL('lone'));
  mkdirSync(join(project, '.kodo', 'skills'), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const projectDirs = () => skillDirs({ cwd: project, env, trusted: true });
const workspace = () => new Workspace({ roots: [project] });
const secret = () => join(outside, 'secret-skill', 'id_rsa');

describe('discovery refuses skills that lead out of their folder', () => {
  it('a project skill folder that is a symlink out of the project', async () => {
    symlinkSync(join(outside, 'secret-skill'), join(project, '.kodo', 'skills', 'evil'));
    const found = await discoverSkills(projectDirs());
    expect(found.skills.map((skill) => skill.name)).toEqual([]);
    expect(found.warnings.join('\n')).toMatch(/evil.*outside|leads outside/);
  });

  it('a project SKILL.md that is a symlink out of the project', async () => {
    write(join(project, '.kodo', 'skills', 'evil', 'notes.md'), 'x');
    symlinkSync(join(outside, 'lone', 'SKILL.md'), join(project, '.kodo', 'skills', 'evil', 'SKILL.md'));
    const found = await discoverSkills(projectDirs());
    expect(found.skills.map((skill) => skill.name)).toEqual([]);
  });

  it("a project's skills folder that is itself a symlink out of the project", async () => {
    rmSync(join(project, '.claude'), { recursive: true, force: true });
    mkdirSync(join(project, '.claude'));
    symlinkSync(outside, join(project, '.claude', 'skills'));
    const found = await discoverSkills(projectDirs());
    expect(found.skills.map((skill) => skill.name)).toEqual([]);
  });

  it("an extension's skill that links out of the extension", async () => {
    const extension = join(base, 'home', '.kodo', 'extensions', 'ext');
    mkdirSync(join(extension, 'skills'), { recursive: true });
    symlinkSync(join(outside, 'secret-skill'), join(extension, 'skills', 'evil'));
    const found = await discoverSkills(
      skillDirs({
        cwd: project,
        env,
        trusted: true,
        extensions: [{ name: 'ext', dir: join(extension, 'skills'), root: extension }],
      }),
    );
    expect(found.skills.map((skill) => skill.name)).toEqual([]);
  });

  it('controls: a link inside the project, and the person’s own user skills, still load', async () => {
    write(join(project, 'tools', 'lint-skill', 'SKILL.md'), SKILL('lint'));
    symlinkSync(join(project, 'tools', 'lint-skill'), join(project, '.kodo', 'skills', 'lint'));
    mkdirSync(join(base, 'home', '.kodo', 'skills'), { recursive: true });
    symlinkSync(join(outside, 'lone'), join(base, 'home', '.kodo', 'skills', 'mine'));
    const found = await discoverSkills(projectDirs());
    expect(found.skills.map((skill) => `${skill.name}:${skill.scope}`).sort()).toEqual([
      'lint:workspace',
      'lone:user',
    ]);
  });
});

describe('activation refuses a skill whose folder now leads out, and opens nothing', () => {
  it('a project skill swapped for a link after discovery', async () => {
    write(join(project, '.kodo', 'skills', 'evil', 'SKILL.md'), SKILL('evil'));
    const found = await discoverSkills(projectDirs());
    expect(found.skills.map((skill) => skill.name)).toEqual(['evil']);
    // The folder becomes a link to the secret folder between discovery and activation.
    renameSync(join(project, '.kodo', 'skills', 'evil'), join(project, 'old-evil'));
    symlinkSync(join(outside, 'secret-skill'), join(project, '.kodo', 'skills', 'evil'));
    const ctx = { workspace: workspace(), env: {}, shellInactivityTimeoutMs: 1000 };
    const tool = createActivateSkillTool({ skills: () => found.skills });
    const built = tool.build({ name: 'evil' }, ctx);
    if (built.ok) {
      const details = await built.invocation.confirmationDetails(new AbortController().signal);
      expect(JSON.stringify(details)).not.toContain('id_rsa');
      const result = await built.invocation.execute({ signal: new AbortController().signal });
      expect(result.error?.message ?? '').toMatch(/outside/);
      expect(JSON.stringify(result.llmContent)).not.toContain('id_rsa');
    } else {
      expect(built.error.message).toMatch(/outside/);
    }
    expect(ctx.workspace.resolvePath(secret(), { access: 'read' }).ok).toBe(false);
  });

  it('control: a user skill is opened for reading on activation', async () => {
    write(join(base, 'home', '.kodo', 'skills', 'pdf', 'SKILL.md'), SKILL('pdf'));
    write(join(base, 'home', '.kodo', 'skills', 'pdf', 'forms.md'), 'forms');
    const found = await discoverSkills(projectDirs());
    const ctx = { workspace: workspace(), env: {}, shellInactivityTimeoutMs: 1000 };
    const built = createActivateSkillTool({ skills: () => found.skills }).build({ name: 'pdf' }, ctx);
    if (!built.ok) throw new Error(built.error.message);
    await built.invocation.execute({ signal: new AbortController().signal });
    const forms = join(base, 'home', '.kodo', 'skills', 'pdf', 'forms.md');
    expect(ctx.workspace.resolvePath(forms, { access: 'read' }).ok).toBe(true);
  });
});
