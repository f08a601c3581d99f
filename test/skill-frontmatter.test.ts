/** SKILL.md follows the Agent Skills format: YAML frontmatter rules, a short body, and it documents what the scripts really accept. */
import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { SKILL_DIR, runScript } from './helpers/skill-store.js';

const text = readFileSync(join(SKILL_DIR, 'SKILL.md'), 'utf8');

function split(md: string): { front: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(md);
  if (!m) throw new Error('SKILL.md must start with a --- YAML frontmatter block');
  return { front: parseYaml(m[1]!) as Record<string, unknown>, body: m[2]! };
}

describe('SKILL.md', () => {
  const { front, body } = split(text);

  it('has a valid name that matches its folder', () => {
    const name = front['name'];
    expect(typeof name).toBe('string');
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect((name as string).length).toBeLessThanOrEqual(64);
    expect(name).toBe(basename(SKILL_DIR));
  });

  it('has a description under 1024 characters, without angle brackets, saying what and when', () => {
    const d = front['description'];
    expect(typeof d).toBe('string');
    expect((d as string).length).toBeGreaterThan(50);
    expect((d as string).length).toBeLessThan(1024);
    expect(d).not.toMatch(/[<>]/);
    expect(d).toMatch(/\bUse it when\b/i);
  });

  it('uses only frontmatter keys the format knows', () => {
    const allowed = new Set(['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility']);
    for (const k of Object.keys(front)) expect(allowed.has(k), `unknown key ${k}`).toBe(true);
  });

  it('has a body well under 500 lines that teaches the workflow, paging and citing', () => {
    expect(text.split('\n').length).toBeLessThan(200);
    for (const s of ['search.js', 'deep_retrieve.js', 'read_source.js', '--pages', '--rows', '--lines', 'next', 'citation', 'stale', '--overview']) {
      expect(body, s).toContain(s);
    }
  });

  it('ships the three scripts and a config.json without secrets', () => {
    for (const f of ['search.js', 'deep_retrieve.js', 'read_source.js', 'config.json']) expect(existsSync(join(SKILL_DIR, f)), f).toBe(true);
    const cfg = JSON.parse(readFileSync(join(SKILL_DIR, 'config.json'), 'utf8'));
    expect(Object.keys(cfg).sort()).toEqual(['store']);
    expect(JSON.stringify(cfg)).not.toMatch(/key|token|secret/i);
  });

  it('documents only options the scripts accept', () => {
    const block = /## Commands\s+```\n([\s\S]*?)```/.exec(body)![1]!;
    expect(block).toMatch(/^search\.js /);
    const scripts = ['search.js', 'deep_retrieve.js', 'read_source.js'];
    for (const script of scripts) {
      const help = runScript(script, ['--help']);
      expect(help.code).toBe(0);
      const lines = block.split(/\n(?=\S)/).filter((l) => l.startsWith(script));
      const flags = new Set(lines.join(' ').match(/--[a-z][a-z-]*/g) ?? []);
      expect(flags.size, script).toBeGreaterThan(2);
      for (const f of flags) expect(help.stdout, `${script} ${f}`).toContain(f);
    }
  });
});
