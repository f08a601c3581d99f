/**
 * What the converters of ZIP-packaged documents share (PowerPoint, EPUB, OpenDocument): opening the
 * package with a clear error, reading one part within a size limit, reading an XML part, and the
 * format entry that recognises the package by a marker among its part names or its stored mimetype part.
 */
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { ConvertError, PRIORITY_SPECIFIC, type FormatSpec } from './types.js';
import type { SourceType } from '../../store/schemas.js';
import { ooxmlPartNames } from './zip-sniff.js';
import { openZip, readEntry, type OpenZip } from './zip-reader.js';
import { capDepth, depthWarning } from './dom-depth.js';

/** Inflated bytes read from one part of a package at most (a zip bomb stops here). */
export const MAX_PART_BYTES = 64 << 20;
const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];

/** One part's text (UTF-8), or null when the package has no such part. */
export async function partText(zip: OpenZip, name: string): Promise<string | null> {
  if (!zip.entries.some((e) => e.name === name)) return null;
  return (await readEntry(zip, name, MAX_PART_BYTES)).toString('utf8');
}

/**
 * Opens the package, runs `read` on it and closes it. A package that cannot be opened fails as
 * "The <what> could not be opened: …" with `hint` (what to do about it).
 */
export async function withPackage<T>(bytes: Uint8Array, what: string, hint: string, read: (zip: OpenZip) => Promise<T>): Promise<T> {
  let zip: OpenZip;
  try {
    zip = await openZip(bytes);
  } catch (err) {
    throw new ConvertError(`The ${what} could not be opened: ${err instanceof Error ? err.message : String(err)}`, hint);
  }
  try {
    return await read(zip);
  } finally {
    zip.close();
  }
}

/** The package manifest of an OpenDocument file, where a password-protected file lists its encrypted parts. */
const ODF_MANIFEST = 'META-INF/manifest.xml';

/**
 * Fails an OpenDocument package saved with a password: its parts are encrypted (the manifest gives
 * their `encryption-data`), so its content part reads as noise, not as "no text".
 */
export async function assertOdfNotEncrypted(zip: OpenZip, what: string): Promise<void> {
  const manifest = await partText(zip, ODF_MANIFEST);
  if (manifest && /<manifest:encryption-data\b/.test(manifest)) {
    throw new ConvertError(`The ${what} is password-protected: its content is encrypted.`, 'Open it in LibreOffice, remove the password (File > Properties > Security, or save a copy without it) and ingest again.');
  }
}

/** A ZIP-packaged format recognised by `marker` in its leading or trailing bytes (a part name or its mimetype part). */
export function packageFormat(type: SourceType, mime: string, extensions: readonly string[], marker: string): FormatSpec {
  return { type, mime, extensions, magic: [ZIP_LOCAL_HEADER], contains: (b) => ooxmlPartNames(b).includes(marker), priority: PRIORITY_SPECIFIC };
}

/**
 * An XML part as cheerio reads it (XML mode: tags as written, prefixes kept: `p:sp`, `dc:title`),
 * nested at most `MAX_DOM_DEPTH` deep; when it had to be flattened, `warnings` says so.
 */
export function loadXml(cheerio: typeof import('cheerio'), text: string, warnings?: string[]): CheerioAPI {
  const $ = cheerio.load(text, { xml: true });
  const w = depthWarning(capDepth($.root()[0]!), 'document');
  if (w) warnings?.push(w);
  return $;
}

/** An element's text (its text nodes, depth first); '' for none. */
export function elementText(el: Element | undefined): string {
  if (!el) return '';
  return el.children.map((c) => (c.type === 'text' ? (c as unknown as { data: string }).data : c.type === 'tag' ? elementText(c as Element) : '')).join('');
}
