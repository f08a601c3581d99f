/**
 * The USE-lite vocabulary's tokenizer (a SentencePiece unigram model: Viterbi over piece log
 * probabilities), ported from @energetic-ai/embeddings so the static embedder needs neither
 * TensorFlow nor that package at run time. Same pieces for the same text (test/embed-static.test.ts).
 */

/** Ids below this are reserved (unknown, <s>, </s>, extras): never matched by text. */
export const RESERVED_PIECES = 6;
/** The unknown piece: a character no piece covers. */
export const UNKNOWN_PIECE = 0;
const SEPARATOR = '\u2581';

interface TrieNode {
  children: Map<number, TrieNode>;
  /** vocabulary id when a piece ends here, else -1 */
  id: number;
  /** the piece's length in characters (code points) */
  length: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, length: 0 });

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

export class PieceTokenizer {
  private readonly root = newNode();
  private readonly scores: Float64Array;

  /** `vocabulary`: [piece, log probability] by id, as in the model's vocab.json. */
  constructor(vocabulary: ReadonlyArray<readonly [string, number]>) {
    this.scores = Float64Array.from(vocabulary, (v) => v[1]);
    for (let i = RESERVED_PIECES; i < vocabulary.length; i++) this.insert(vocabulary[i]![0], i);
  }

  private insert(piece: string, id: number): void {
    let node = this.root;
    const cps = codePoints(piece);
    for (const cp of cps) {
      let next = node.children.get(cp);
      if (!next) node.children.set(cp, (next = newNode()));
      node = next;
    }
    node.id = id;
    node.length = cps.length;
  }

  /**
   * Piece ids of `text`, in order: the best-scoring segmentation (Viterbi, forward). For each end
   * position candidates are weighed by increasing start and a later one wins ties, as upstream.
   */
  encode(text: string): number[] {
    const normalized = text.normalize('NFKC');
    if (normalized.length === 0) return [];
    const symbols = codePoints(SEPARATOR + normalized.replace(/ /g, SEPARATOR));
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    const lens = new Int32Array(n + 1);
    const relax = (start: number, end: number, id: number, score: number) => {
      const s = score + best[start]!;
      if (best[end] === 0 || s >= best[end]!) {
        best[end] = s;
        words[end] = id;
        lens[end] = end - start;
      }
    };
    for (let i = 0; i < n; i++) {
      let node = this.root.children.get(symbols[i]!);
      let found = false;
      for (let j = i; node; ) {
        if (node.id >= 0) {
          relax(i, i + node.length, node.id, this.scores[node.id]!);
          found = true;
        }
        j++;
        node = j < n ? node.children.get(symbols[j]!) : undefined;
      }
      if (!found) relax(i, i + 1, UNKNOWN_PIECE, 0);
    }
    const out: number[] = [];
    for (let e = n; e > 0; e -= lens[e]!) out.push(words[e]!);
    out.reverse();
    // consecutive unknown pieces count once (as upstream)
    return out.filter((id, i) => !(id === UNKNOWN_PIECE && out[i - 1] === UNKNOWN_PIECE));
  }
}
