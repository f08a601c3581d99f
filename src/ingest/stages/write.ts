/**
 * Write stage: the source's converted files and tree go to the store (temp + rename, only when their
 * bytes change), files the new conversion no longer produces are removed, and the source is settled.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeIfChanged } from '../../store/atomic.js';
import { canonicalJson } from '../../store/json.js';
import { TreeFile } from '../../store/schemas.js';
import { convertedDir, treePath } from '../../store/layout.js';
import { settle, type SourceStage } from './types.js';
import { collectAfterLarge } from '../../util/memory.js';

/** Remove files under converted/<id>/ that the new conversion did not produce. */
export function pruneConverted(root: string, id: string, keep: Set<string>): void {
  const dir = join(root, convertedDir(id));
  if (!existsSync(dir)) return;
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs)) {
      const a = join(abs, name);
      const r = `${rel}/${name}`;
      if (statSync(a).isDirectory()) {
        walk(a, r);
        if (readdirSync(a).length === 0) rmSync(a, { recursive: true, force: true });
      } else if (!keep.has(r)) rmSync(a, { force: true });
    }
  };
  walk(dir, convertedDir(id));
}

/** Remove everything a source has in the store (converted files and tree). */
export function removeSourceFiles(root: string, id: string): void {
  rmSync(join(root, convertedDir(id)), { recursive: true, force: true });
  rmSync(join(root, treePath(id)), { force: true });
}

export const writeStage: SourceStage = {
  name: 'write',
  run(job, run) {
    const { tree, files } = job.tree!;
    const pages = job.result!.pages ?? 0;
    // the converted nodes are in `files` now: drop them, so the decoded text they were cut from dies with the last file written
    delete job.result;
    const keep = new Set<string>();
    for (const [rel, content] of files) {
      writeIfChanged(join(run.root, rel), content, false);
      keep.add(rel);
      // written: let it go now (a node text written is flattened into a copy; 100k of them would add up)
      files.delete(rel);
    }
    pruneConverted(run.root, job.id, keep);
    collectAfterLarge((job.det?.card.size_kb ?? 0) * 1024);
    // like the node texts, no fsync: a torn tree is found by doctor and redone by `doctor --fix` or the next run
    job.written = TreeFile.parse(tree);
    writeIfChanged(join(run.root, treePath(job.id)), canonicalJson(job.written), false);
    settle(job, job.entry!, pages);
  },
};
