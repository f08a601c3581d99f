/**
 * The sheets of an .xlsx package in workbook order, with their parts and merged ranges, read without
 * building a workbook model: the workbook part and its rels are small; each sheet part is streamed
 * and scanned for `<mergeCell>` (the streaming row reader does not report merges).
 */
import { readEntry, type OpenZip } from '../zip-reader.js';
import type { CellValue, RawCell } from './schema.js';

/** Largest workbook.xml / rels part read whole. */
export const MAX_WORKBOOK_PART_BYTES = 16 << 20;
/** Characters kept between chunks so a `<mergeCell …/>` tag split across chunks is still seen. */
const CARRY_CHARS = 256;

export interface MergeRange {
  ref: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
}

function colNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function parseRange(ref: string): MergeRange | null {
  const m = /^\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$/i.exec(ref);
  if (!m) return null;
  return { ref: ref.toUpperCase(), left: colNumber(m[1]!), top: +m[2]!, right: colNumber(m[3]!), bottom: +m[4]! };
}

function decodeXml(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

export interface SheetPart {
  name: string;
  /** zip entry of the sheet, e.g. xl/worksheets/sheet1.xml */
  part: string;
  merges: MergeRange[];
}

/** The workbook's sheets in workbook order, with their part names and merged ranges. */
export async function readSheetParts(zip: OpenZip): Promise<SheetPart[]> {
  const names = new Set(zip.entries.map((e) => e.name));
  if (!names.has('xl/workbook.xml')) throw new Error('xl/workbook.xml is missing');
  const wb = (await readEntry(zip, 'xl/workbook.xml', MAX_WORKBOOK_PART_BYTES)).toString('utf8');
  const rels = names.has('xl/_rels/workbook.xml.rels') ? (await readEntry(zip, 'xl/_rels/workbook.xml.rels', MAX_WORKBOOK_PART_BYTES)).toString('utf8') : '';
  const targetById = new Map<string, string>();
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    const id = /\bId="([^"]+)"/.exec(m[0])?.[1];
    const target = /\bTarget="([^"]+)"/.exec(m[0])?.[1];
    if (id && target) targetById.set(id, target.replace(/^\/?xl\//, '').replace(/^\//, ''));
  }
  const out: SheetPart[] = [];
  for (const m of wb.matchAll(/<sheet\b[^>]*>/g)) {
    const name = decodeXml(/\bname="([^"]*)"/.exec(m[0])?.[1] ?? '');
    const rid = /\br:id="([^"]+)"/.exec(m[0])?.[1] ?? /\bid="([^"]+)"/.exec(m[0])?.[1];
    const target = rid ? targetById.get(rid) : undefined;
    const part = target ? `xl/${target}` : undefined;
    if (!part || !names.has(part)) continue;
    const merges: MergeRange[] = [];
    const s = await zip.stream(part);
    let carry = '';
    for await (const chunk of s as AsyncIterable<Buffer>) {
      const text = carry + chunk.toString('latin1');
      let lastEnd = 0;
      for (const mc of text.matchAll(/<mergeCell\b[^>]*\bref="([^"]+)"[^>]*\/?>/g)) {
        const r = parseRange(mc[1]!);
        if (r) merges.push(r);
        lastEnd = mc.index! + mc[0].length;
      }
      carry = text.slice(Math.max(lastEnd, text.length - CARRY_CHARS));
    }
    out.push({ name, part, merges });
  }
  return out;
}

/**
 * Spreads each merged range's top-left value over the range, row by row as a streaming reader
 * delivers them (`anchors` holds the top-left cells of the ranges open at this row).
 */
export function applyMerges(rowNo: number, cells: RawCell[], merges: MergeRange[], anchors: Map<MergeRange, RawCell>): void {
  for (const m of merges) {
    if (rowNo < m.top || rowNo > m.bottom) continue;
    if (rowNo === m.top) anchors.set(m, cells[m.left - 1] ?? { value: null });
    const anchor = anchors.get(m);
    if (!anchor || anchor.value === null) continue;
    for (let c = m.left; c <= m.right; c++) {
      if (c === m.left && rowNo === m.top) continue;
      cells[c - 1] = { value: anchor.value as CellValue, ...(anchor.hint ? { hint: anchor.hint } : {}) };
    }
    if (rowNo === m.bottom) anchors.delete(m);
  }
}
