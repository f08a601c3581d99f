/** Store-wide indexes built at the end of an ingest (keyword index, FAISS card and node indexes). */
import type { Config } from '../store/schemas.js';
import type { IndexBuilder } from '../model/stages.js';
import { keywordIndexBuilder } from './keyword-builder.js';
import { vectorIndexBuilder } from './vector-builder.js';

export function defaultIndexBuilders(_config: Config): IndexBuilder[] {
  return [keywordIndexBuilder(), vectorIndexBuilder()];
}
