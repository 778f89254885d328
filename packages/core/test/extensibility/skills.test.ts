import { createTempWorkspace, type TempWorkspace } from '@kodo/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { createActivateSkillTool } from '../../src/skills/activate-skill';
import { discoverSkills } from '../../src/skills/discover';
import { enabledSkills } from '../../src/skills/enabled';
import { skillDirs } from '../../src/skills/locations';
import { skillsPromptSection } from '../../src/skills/prompt';
import { parseFrontmatter } from '../../src/utils/frontmatter';

let ws: TempWorkspace | undefined;
afterEach(() => ws?.cleanup());
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

describe('skill discovery', () => {
  it('finds SKILL.md one level down only, a later tier wins with the conflict warning, lookups ignore case', async () => {
    ws = createTempWorkspace({
      'user/pdf/SKILL.md': skill('pdf', 'user pdf'),
      'user/a/b/SKILL.md': skill('deep', 'too deep'),
      'user/node_modules/SKILL.md': skill('nm', 'ignored'),
      'user/node_modules/x/SKILL.md': skill('nm2', 'ignored'),
      'project/PDF/SKILL.md': skill('PDF', 'project pdf'),
      'project/SKILL.md': skill('root-skill', 'the folder itself'),
      'project/broken/SKILL.md': 'no frontmatter',
    });
    const found = await discoverSkills([
      { dir: `${ws.root}/user`, scope: 'user' },
      { dir: `${ws.root}/project`, scope: 'workspace' },
      { dir: `${ws.root}/absent`, scope: 'workspace' },
    ]);
    expect(found.skills.map((s) => `${s.name}:${s.description}`).sort()).toEqual([
      'PDF:project pdf',
      'root-skill:the folder itself',
    ]);
    expect(found.warnings).toEqual([
      `Skill conflict detected: "PDF" from "${ws.root}/project/PDF/SKILL.md" is overriding the same skill from "${ws.root}/user/pdf/SKILL.md".`,
    ]);
    expect(enabledSkills(found.skills, ['pdf']).map((s) => s.name)).toEqual(['root-skill']);
  });

  it('takes the name from the folder and the description from the body (Claude Code files)', async () => {
    ws = createTempWorkspace({
      'skills/my:tool/SKILL.md': '---\nallowed-tools: Read\n---\n# Converts files\nMore.\n',
    });
    const found = await discoverSkills([{ dir: `${ws.root}/skills`, scope: 'user' }]);
    expect(found.skills[0]).toMatchObject({ name: 'my-tool', description: 'Converts files' });
  });

  it('skips project folders when untrusted; the shared .agents alias outranks the other programs, kodo outranks all', () => {
    const env = { HOME: '/h', KODO_HOME: '/k', GEMINI_CLI_HOME: '/h' };
    expect(skillDirs({ cwd: '/p', env, trusted: false }).map((dir) => dir.dir)).toEqual([
      '/h/.gemini/skills',
      '/h/.claude/skills',
      '/h/.agents/skills',
      '/k/skills',
    ]);
    expect(
      skillDirs({ cwd: '/p', env, trusted: true })
        .slice(4)
        .map((dir) => dir.dir),
    ).toEqual(['/p/.gemini/skills', '/p/.claude/skills', '/p/.agents/skills', '/p/.kodo/skills']);
  });
});

describe('frontmatter', () => {
  it('reads plain lines without YAML, falls back to lines when YAML fails, and keeps YAML types', async () => {
    expect((await parseFrontmatter('---\nname: a\ndescription: b c\n---\nbody'))?.data).toEqual({
      name: 'a',
      description: 'b c',
    });
    const broken = await parseFrontmatter('---\nname: a\ndescription: uses: colons\n  and continues\n---\n');
    expect(broken?.data).toEqual({ name: 'a', description: 'uses: colons and continues' });
    expect(broken?.yamlError).toBeDefined();
    expect((await parseFrontmatter('---\ntools:\n  - Read\nmax_turns: 3\nok: true\n---\n'))?.data).toEqual({
      tools: ['Read'],
      max_turns: 3,
      ok: true,
    });
    expect((await parseFrontmatter('---\r\nname: "q: x"\r\n---\r\nb'))?.data).toEqual({ name: 'q: x' });
    expect(await parseFrontmatter('no frontmatter')).toBeUndefined();
  });
});

describe('activate_skill', () => {
  it('declares the names, returns instructions and resources, opens the folder read-only, and names the skills on a miss', async () => {
    ws = createTempWorkspace({
      'skills/pdf/SKILL.md': skill('pdf', 'Handles PDFs'),
      'skills/pdf/ref/forms.md': 'forms',
    });
    const work = createTempWorkspace();
    try {
      const found = await discoverSkills([{ dir: `${ws.root}/skills`, scope: 'user' }]);
      const tool = createActivateSkillTool({ skills: () => found.skills });
      expect(tool.declaration().parametersJsonSchema).toMatchObject({
        properties: { name: { enum: ['pdf'] } },
      });
      expect(skillsPromptSection(found.skills)).toContain(
        `<location>${ws.root}/skills/pdf/SKILL.md</location>`,
      );
      const missing = tool.build({ name: 'nope' }, work.ctx);
      expect(missing).toEqual({
        ok: false,
        error: { type: 'invalid_tool_params', message: 'Skill "nope" not found. Available skills are: pdf' },
      });
      const built = tool.build({ name: 'PDF' }, work.ctx);
      if (!built.ok) throw new Error(built.error.message);
      const forms = `${ws.root}/skills/pdf/ref/forms.md`;
      expect(work.ctx.workspace.resolvePath(forms, { access: 'read' }).ok).toBe(false);
      const result = await built.invocation.execute({ signal: new AbortController().signal });
      expect(result.llmContent).toContain('<instructions>\nBody of pdf.\n</instructions>');
      expect(result.llmContent).toContain('    forms.md');
      expect(work.ctx.workspace.resolvePath(forms, { access: 'read' }).ok).toBe(true);
      expect(work.ctx.workspace.resolvePath(forms).ok).toBe(false);
    } finally {
      work.cleanup();
    }
  });
});

describe('system prompt cost', () => {
  it('grows by each skill’s name, description and location plus a fixed wrapper, nothing more', () => {
    const skills = Array.from({ length: 50 }, (_, index) => ({
      name: `skill-${index}`,
      description: `Helps with task ${index} when the user asks for it.`,
      location: `/home/u/.kodo/skills/skill-${index}/SKILL.md`,
    }));
    const one = Buffer.byteLength(skillsPromptSection(skills.slice(0, 1)));
    const all = Buffer.byteLength(skillsPromptSection(skills));
    const payload = skills
      .slice(1)
      .reduce((sum, skill) => sum + Buffer.byteLength(skill.name + skill.description + skill.location), 0);
    // The tags around each entry and its newline: 77 bytes.
    expect((all - one - payload) / 49).toBe(77);
  });
});
