/**
 * What the sampling role sees: a sample of the file, never the file. Text: first ~2000 characters
 * plus the headings found (the TOC); PDF: the first pages plus the outline; CSV/TSV: header and first
 * 5 data rows (also per sheet of an .xlsx workbook, with the sheet names); .docx: its first ~2000
 * characters; code: the first 200 lines. Returns null for types we cannot sample cheaply (the
 * offline planner decides those).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Sample } from '../model/sample.js';

export const SAMPLE_CHARS = 2000;
export const SAMPLE_CODE_LINES = 200;
export const SAMPLE_DATA_ROWS = 5;
export const SAMPLE_MAX_PAGES = 3;
/** TOC entries shown. */
export const SAMPLE_TOC_ITEMS = 60;


function header(s: Sample, extra: string[] = []): string {
  const c = s.card;
  return [`File: ${c.original_path}`, `Type: ${c.type}${c.language ? ` (${c.language})` : ''}`, `Size: ${c.size_kb} KB`, ...(c.pages ? [`Pages: ${c.pages}`] : []), ...extra].join('\n');
}

function readText(root: string, s: Sample): string | null {
  try {
    return readFileSync(resolve(root, s.card.original_path), 'utf8');
  } catch {
    return null;
  }
}

async function pdfSample(s: Sample): Promise<string | null> {
  if (!s.pdfPreview) return null;
  try {
    const p = await s.pdfPreview({ maxPages: SAMPLE_MAX_PAGES, maxChars: SAMPLE_CHARS, maxOutline: SAMPLE_TOC_ITEMS });
    const pages = p.pages.map((t, i) => `<!-- page ${i + 1} -->\n${t}`);
    return [
      header(s, s.card.pages ? [] : [`Pages: ${p.numPages}`]),
      p.outline.length ? `Outline (bookmarks):\n${p.outline.join('\n')}` : 'Outline: none',
      `First pages:\n${pages.join('\n\n')}`,
    ].join('\n\n');
  } catch {
    return null;
  }
}

function readBytes(root: string, s: Sample): Buffer | null {
  try {
    return readFileSync(resolve(root, s.card.original_path));
  } catch {
    return null;
  }
}

/** Sheets listed in a workbook sample. */
export const SAMPLE_SHEETS = 10;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { text?: unknown; result?: unknown; richText?: Array<{ text: string }> };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return String(o.text);
    if (o.result !== undefined) return String(o.result);
    return '';
  }
  return String(v).replace(/\s+/g, ' ').slice(0, 80);
}

async function xlsxSample(root: string, s: Sample): Promise<string | null> {
  const bytes = readBytes(root, s);
  if (!bytes) return null;
  const { Readable } = await import('node:stream');
  const ExcelJS = (await import('exceljs')).default;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' });
  const parts: string[] = [];
  const names: string[] = [];
  for await (const ws of reader as AsyncIterable<unknown>) {
    const sheet = ws as AsyncIterable<unknown> & { name: string };
    names.push(sheet.name);
    const rows: string[] = [];
    for await (const r of sheet) {
      if (rows.length > SAMPLE_DATA_ROWS || names.length > SAMPLE_SHEETS) continue; // drain the rest
      const row = r as { values: unknown[] };
      rows.push((Array.isArray(row.values) ? row.values.slice(1) : []).map(cellText).join(' | '));
    }
    if (names.length <= SAMPLE_SHEETS) parts.push(`Sheet "${sheet.name}" (header row and first ${SAMPLE_DATA_ROWS} data rows):\n${rows.join('\n')}`);
  }
  return [header(s, [`Sheets: ${names.join(', ')}`]), ...parts].join('\n\n');
}

async function docxSample(root: string, s: Sample): Promise<string | null> {
  const bytes = readBytes(root, s);
  if (!bytes) return null;
  const mammoth = (await import('mammoth')).default;
  const { value } = await mammoth.extractRawText({ buffer: bytes });
  return [header(s), `First ${SAMPLE_CHARS} characters:\n${value.replace(/\n{3,}/g, '\n\n').slice(0, SAMPLE_CHARS)}`].join('\n\n');
}

export async function samplingInput(root: string, s: Sample): Promise<string | null> {
  switch (s.card.type) {
    case 'pdf':
      return pdfSample(s);
    case 'xlsx':
      return xlsxSample(root, s);
    case 'docx':
      return docxSample(root, s);
    case 'code': {
      const text = readText(root, s);
      if (text === null) return null;
      const lines = text.split('\n');
      return [header(s, [`Lines: ${lines.length}`]), `First ${Math.min(SAMPLE_CODE_LINES, lines.length)} lines:\n${lines.slice(0, SAMPLE_CODE_LINES).join('\n')}`].join('\n\n');
    }
    case 'csv': case 'tsv': {
      const text = readText(root, s);
      if (text === null) return null;
      const rows = text.split(/\r?\n/).filter((l) => l.trim());
      return [header(s, [`Rows: ${rows.length}`]), `Header row and first ${SAMPLE_DATA_ROWS} data rows:\n${rows.slice(0, SAMPLE_DATA_ROWS + 1).join('\n')}`].join('\n\n');
    }
    case 'markdown': case 'text': case 'html': case 'json': case 'yaml': case 'xml': case 'log': {
      const text = readText(root, s);
      if (text === null) return null;
      const headings = (text.match(/^#{1,6}\s+\S.*$/gm) ?? []).slice(0, SAMPLE_TOC_ITEMS);
      return [header(s, [`Lines: ${s.line_count}`]), headings.length ? `Headings (TOC):\n${headings.join('\n')}` : 'Headings: none', `First ${SAMPLE_CHARS} characters:\n${text.slice(0, SAMPLE_CHARS)}`].join('\n\n');
    }
    default:
      return null;
  }
}
