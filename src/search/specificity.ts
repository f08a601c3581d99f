/**
 * How specific a query word is to the library: a word most of its sources use ("entry", "make",
 * "function", "value") says little about which section answers a question, one few sources use
 * ("shakuhachi", "magstep", "vcovCL") says much. Tier 2 ranks the nodes of one source by BM25
 * whose idf is over that source's nodes only, where a generic word the source happens to use once
 * weighs as much as the question's subject; its groups are weighted by this factor as well
 * (nodes.ts scoringGroups). Read from the source-level keyword index: which sources hold the word
 * in any field. No field's vocabulary: the library's own spread of each word.
 */
import { idf } from './bm25.js';
import { KeywordShardError, sourcesHolding, type SourceKeywords } from './keyword-index.js';

/**
 * Weight of a word every source uses, relative to one only one source uses (1): the factor runs
 * from this floor up with the word's idf over the library's sources. Tier-2 hit@1 over ten sets
 * (FinanceBench dev and reworded, cross-domain and its rewording, formats, fields, audits 4 and 5
 * with their rewordings): mean 0.748 → 0.766 at 0.5, no set lower; 0.3: 0.761; 0.7: 0.761.
 */
export const SPECIFICITY_FLOOR = 0.5;
/** Libraries of fewer sources leave the words unweighted: in them a word's spread is chance. */
export const SPECIFICITY_MIN_SOURCES = 10;

/** A word's factor in [SPECIFICITY_FLOOR, 1]. */
export type Specificity = (term: string) => number;

/**
 * Each word's factor: SPECIFICITY_FLOOR plus the rest in proportion to its idf over the library's
 * sources (a word no source holds, as one source). Null when the library has fewer than
 * SPECIFICITY_MIN_SOURCES sources or no readable keyword index; a term shard that cannot be read
 * leaves that word at 1.
 */
export function librarySpecificity(kix: SourceKeywords | null): Specificity | null {
  const n = kix?.ids.length ?? 0;
  if (!kix || n < SPECIFICITY_MIN_SOURCES) return null;
  const top = idf(n, 1);
  const memo = new Map<string, number>();
  return (t) => {
    let f = memo.get(t);
    if (f === undefined) {
      try {
        f = SPECIFICITY_FLOOR + (1 - SPECIFICITY_FLOOR) * (idf(n, Math.max(1, sourcesHolding(kix, t).size)) / top);
      } catch (err) {
        if (!(err instanceof KeywordShardError)) throw err;
        f = 1;
      }
      memo.set(t, f);
    }
    return f;
  };
}
