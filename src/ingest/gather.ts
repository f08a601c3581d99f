/**
 * The scan stage as the pipeline sees it: walk the given paths (./scan.ts), expand archives
 * (./archive-members.ts), and register folders outside the store under `external/<name>/` in
 * config.json (../store/source-path.ts). Returns the files to ingest and one notice per path that
 * was found but not ingested.
 */
import type { Config } from '../store/schemas.js';
import { readExternalRoots, writeExternalRoots } from '../store/source-path.js';
import { scanPaths, type ScanNotice, type ScannedFile } from './scan.js';
import { expandArchives } from './archive-members.js';

export interface Gathered {
  files: ScannedFile[];
  notices: ScanNotice[];
  externalRoots: Record<string, string>;
}

export interface GatherOptions {
  cwd?: string | undefined;
  /** follow links to targets outside the ingested folder (overrides config ingest.follow_external_links) */
  followLinks?: boolean | undefined;
  /** only files whose store-relative path passes (a shard's slice); applied before archives are opened */
  keep?: ((rel: string) => boolean) | undefined;
}

export async function gatherSources(root: string, paths: string[], config: Config, opts: GatherOptions = {}): Promise<Gathered> {
  const known = readExternalRoots(root);
  const scan = scanPaths(root, paths, opts.cwd, config.ingest.exclude, {
    externalRoots: known,
    followExternalLinks: opts.followLinks ?? config.ingest.follow_external_links,
  });
  const keep = opts.keep ?? (() => true);
  const notices = scan.notices.filter((n) => keep(n.path));
  const files = await expandArchives(scan.files.filter((f) => keep(f.rel)), notices);
  if (Object.keys(scan.externalRoots).length !== Object.keys(known).length) writeExternalRoots(root, scan.externalRoots);
  return { files, notices, externalRoots: scan.externalRoots };
}

/** One line per notice, for the summary. */
export function formatNotice(n: ScanNotice): string {
  return `${n.path}: ${n.reason}`;
}
