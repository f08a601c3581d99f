/**
 * Why an index search wanted could not be used, in one line each (said once per answer): a keyword
 * index that is missing is not the same as one that is corrupt, and node vectors that cannot be
 * read must not be skipped silently.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { KEYWORD_SOURCES_FILE } from '../model/keyword-format.js';
import { NODE_INDEX_FILE, readNodeMetadata } from '../vector/metadata.js';

/** The warning for a keyword index that could not be opened. */
export function keywordIndexWarning(root: string): string {
  if (!existsSync(join(root, KEYWORD_SOURCES_FILE))) return `keyword index missing (${KEYWORD_SOURCES_FILE}); run \`mhub ingest\` to build it`;
  return `keyword index unreadable (${KEYWORD_SOURCES_FILE} is corrupt or from another format version): keyword ranking is off; run \`mhub doctor --fix\` to rebuild it`;
}

/** The warning when card vectors were used but node vectors were not. */
export function nodeVectorsWarning(root: string): string {
  const what = !existsSync(join(root, NODE_INDEX_FILE)) ? 'missing' : readNodeMetadata(root) ? 'unreadable or made by another model' : 'without readable metadata';
  return `node vectors (${NODE_INDEX_FILE}) ${what}: sources are ranked without node similarity; run \`mhub doctor --fix\` to rebuild them`;
}
