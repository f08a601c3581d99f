/**
 * The converter contract (defined in src/model/convert.ts, shared with the LLM layer) and how a
 * converter is registered: the formats it accepts by extension, magic bytes and sniffed content,
 * each with a priority (lower is tried first), as markitdown does.
 */
import type { SourceType } from '../../store/schemas.js';
import type { Converter } from '../../model/convert.js';

export * from '../../model/convert.js';

/** Priority of a format recognised by a specific signature or test (tried first). */
export const PRIORITY_SPECIFIC = 0;
/** Priority of a loose content test (e.g. "has a markdown heading"). */
export const PRIORITY_LOOSE = 5;
/** Priority of a catch-all (a generic ZIP, plain text): tried last. */
export const PRIORITY_GENERIC = 10;

/** One format a converter accepts. */
export interface FormatSpec {
  type: SourceType;
  mime?: string;
  /** lower-case extensions with their dot; a name ending so is this format unless content says otherwise */
  extensions?: readonly string[];
  /** programming language by extension (the code format) */
  languages?: Readonly<Record<string, string>>;
  /** byte signatures at offset 0; a format with magic is binary: its name without its magic means a broken file */
  magic?: readonly (readonly number[])[];
  /** a further test on the whole content once the magic matched (e.g. the main part of an OOXML package) */
  contains?: (bytes: Uint8Array) => boolean;
  /** a test on the leading text of a text file whose name says nothing; `language` when it is code */
  sniffText?: (head: string) => boolean;
  /** language recorded when `sniffText` matched (e.g. a shebang → shell) */
  sniffedLanguage?: string;
  /** lower is tried first; equal priorities in registration order */
  priority: number;
}

/** What a converter file registers: its converter (null: recognised, deliberately not converted) and formats. */
export interface ConverterRegistration {
  converter: Converter | null;
  /** why sources of these formats are skipped, when `converter` is null */
  skipReason?: string;
  formats: readonly FormatSpec[];
}
