/**
 * Zod schemas for every file the store writes or reads. Key order in each schema is the key order
 * written to disk (zod's parse output follows the shape), so parse-then-serialize is canonical.
 */
import { z } from 'zod';

export const SCHEMA_VERSION = 1;

/** Source types recognised by detection. One converter per type (or a clear skip reason). */
export const SOURCE_TYPES = [
  'pdf', 'markdown', 'text', 'docx', 'doc', 'rtf', 'xlsx', 'xls', 'pptx', 'ppt', 'epub', 'odt', 'ods', 'odp', 'csv', 'tsv', 'html', 'code',
  'json', 'yaml', 'xml', 'log', 'image', 'zip', 'tar', 'gzip', 'man', 'latex', 'notebook', 'postscript', 'unknown',
] as const;
export const SourceType = z.enum(SOURCE_TYPES);
export type SourceType = z.infer<typeof SourceType>;

export const APPROACHES = ['tree_index', 'schema_index', 'symbol_index', 'chunk_embed', 'ocr'] as const;
export const Approach = z.enum(APPROACHES);
export type Approach = z.infer<typeof Approach>;

/** The strategy object: what the offline planner and the LLM sampler both return. */
export const Strategy = z.object({
  doc_nature: z.string(),
  has_structure: z.boolean(),
  recommended_approach: Approach,
  convert_to_plaintext: z.boolean().default(false),
  key_sections: z.array(z.string()).default([]),
  estimated_nodes: z.number().int().nonnegative().optional(),
  special_handling: z.array(z.string()).default([]),
  summary: z.string().default(''),
  planner: z.string().default('offline'),
});
export type Strategy = z.infer<typeof Strategy>;

/** What detection learns about a file without converting it. */
export const FileCard = z.object({
  id: z.string().regex(/^src_[0-9a-f]{8,}$/),
  filename: z.string(),
  original_path: z.string(),
  type: SourceType,
  mime: z.string().optional(),
  language: z.string().optional(),
  size_kb: z.number().nonnegative(),
  pages: z.number().int().nonnegative().optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileCard = z.infer<typeof FileCard>;

export const TocSource = z.enum(['bookmarks', 'printed_toc', 'detected', 'pages', 'headings', 'symbols', 'schema', 'paragraphs', 'llm', 'plan']);
export type TocSource = z.infer<typeof TocSource>;

const Range = z.tuple([z.number().int(), z.number().int()]);

export interface TreeNode {
  node_id: string;
  title: string;
  kind?: string | undefined;
  summary: string;
  page_range?: [number, number] | undefined;
  line_range?: [number, number] | undefined;
  row_range?: [number, number] | undefined;
  content_ref: string | null;
  meta?: Record<string, unknown> | undefined;
  children: TreeNode[];
}

export const TreeNode: z.ZodType<TreeNode, z.ZodTypeDef, unknown> = z.lazy(() =>
  z.object({
    node_id: z.string(),
    title: z.string(),
    kind: z.string().optional(),
    summary: z.string(),
    page_range: Range.optional(),
    line_range: Range.optional(),
    row_range: Range.optional(),
    content_ref: z.string().nullable(),
    meta: z.record(z.unknown()).optional(),
    children: z.array(TreeNode),
  }),
);

export const TreeFile = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  id: z.string(),
  file: z.string(),
  type: SourceType,
  title: z.string(),
  toc_source: TocSource,
  strategy: Approach,
  page_count: z.number().int().optional(),
  line_count: z.number().int().optional(),
  node_count: z.number().int(),
  root: TreeNode,
});
export type TreeFile = z.infer<typeof TreeFile>;

/** Document-level metadata card (the text embedded into the FAISS card index). */
export const DocCard = z.object({
  title: z.string(),
  summary: z.string(),
  doc_type: z.string().default(''),
  period: z.string().default(''),
  date: z.string().default(''),
  key_topics: z.array(z.string()).default([]),
  sections_overview: z.array(z.string()).default([]),
});
export type DocCard = z.infer<typeof DocCard>;

export const SourceStatus = z.enum(['indexed', 'skipped', 'failed']);
export type SourceStatus = z.infer<typeof SourceStatus>;

/** Per-source record of what the LLM did (issue: Claude at ingest). */
export const LlmRecord = z.object({
  provider: z.string(),
  model: z.string(),
  steps: z.array(z.string()),
  fallbacks: z.array(z.string()).default([]),
});

export const CatalogEntry = z.object({
  id: z.string(),
  filename: z.string(),
  original_path: z.string(),
  type: SourceType,
  mime: z.string().optional(),
  language: z.string().optional(),
  size_kb: z.number(),
  pages: z.number().int().optional(),
  sha256: z.string(),
  status: SourceStatus,
  error: z.string().nullable(),
  strategy: Strategy.nullable(),
  /** plan fields the converter or tree builder could not honour, with why (sorted by field, then reason) */
  plan_notes: z.array(z.object({ field: z.string(), reason: z.string() })).optional(),
  ...DocCard.shape,
  tags: z.array(z.string()).default([]),
  shelf: z.string().optional(),
  related: z.array(z.object({ id: z.string(), reason: z.string() })).optional(),
  meta: z.record(z.string()).optional(),
  tree_path: z.string().nullable(),
  converted_path: z.string().nullable(),
  node_count: z.number().int().default(0),
  toc_source: TocSource.optional(),
  converter: z.string().nullable(),
  indexed_from_sha256: z.string().nullable(),
  indexed_at: z.string(),
  llm: LlmRecord.optional(),
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;

export const Catalog = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  generator: z.string(),
  last_updated: z.string().nullable(),
  source_count: z.number().int(),
  sources: z.array(CatalogEntry),
});
export type Catalog = z.infer<typeof Catalog>;

export const EmbeddingConfig = z.object({
  /** auto | minilm | use-lite | none */
  model: z.string().default('auto'),
  models_dir: z.string().nullable().default(null),
  allow_remote: z.boolean().default(false),
  batch_size: z.number().int().positive().default(32),
});

export const LlmConfig = z.object({
  /** auto | anthropic | claude-cli | none */
  provider: z.string().default('auto'),
  /** Anthropic model id (claude-sonnet-4-5 reaches end-of-life on 2026-11-30 per the SDK) */
  model: z.string().default('claude-sonnet-5-5'),
  max_concurrency: z.number().int().positive().default(4),
  max_calls: z.number().int().nonnegative().nullable().default(null),
  timeout_ms: z.number().int().positive().default(120000),
  max_retries: z.number().int().nonnegative().default(4),
});

export const SearchConfig = z.object({
  /**
   * No longer decides a verdict (kept so existing config.json files stay valid): a source is
   * `strong` when it is first and clearly leads (search/confidence.ts sourceVerdict), a node when it
   * leads the source's other nodes (search/node-confidence.ts).
   */
  strong_threshold: z.number().default(0.6),
  weak_threshold: z.number().default(0.3),
  default_k: z.number().int().positive().default(5),
});

export const Config = z.object({
  schema_version: z.literal(SCHEMA_VERSION).default(SCHEMA_VERSION),
  inbox: z.string().default('inbox'),
  embedding: EmbeddingConfig.default({}),
  llm: LlmConfig.default({}),
  search: SearchConfig.default({}),
  /** opt-in vocabulary packs (docs/vocabularies.md), e.g. ["finance"] */
  vocabularies: z.array(z.string()).default([]),
  ingest: z
    .object({
      max_leaf_pages: z.number().int().positive().default(5),
      workers: z.number().int().nonnegative().default(0),
      /** files larger than this many MB are recorded as skipped, never read (0 = no limit) */
      max_file_mb: z.number().nonnegative().default(256),
      exclude: z.array(z.string()).default(['**/.git/**', '**/node_modules/**', '**/.DS_Store']),
      /** follow symbolic links whose target lies outside the folder being ingested (off: skipped with a message) */
      follow_external_links: z.boolean().default(false),
    })
    .default({}),
  /** folders outside the store that were ingested: name → absolute path; their sources are `external/<name>/…` */
  external_roots: z.record(z.string()).optional(),
});
export type Config = z.infer<typeof Config>;

/** Local-only (git-ignored) cache of file stats to skip hashing unchanged files. */
export const StatCache = z.object({
  files: z.record(z.object({ size: z.number(), mtime_ms: z.number(), sha256: z.string() })),
});
export type StatCache = z.infer<typeof StatCache>;

export const LockFile = z.object({ pid: z.number().int(), host: z.string(), started_at: z.string(), command: z.string() });
export type LockFile = z.infer<typeof LockFile>;
