/**
 * From the planner's Strategy to the directives converters act on (src/model/plan.ts). The free-text
 * special_handling notes are read for the handlings a converter step exists for (tables as rows
 * with their header, two-column reading, page ranges); a note no step reads is returned as unread,
 * and the convert stage records it as not honoured. See docs/plan.md.
 */
import type { Strategy } from '../../store/schemas.js';
import type { PlanDirectives, PlanNote } from '../../model/plan.js';
import { compareStrings } from '../../store/json.js';

/** Notes asking for table rows labelled with their header. */
const TABLE_ROWS = /\btables?\b.*\b(rows?|records?)\b|\b(rows?|records?)\b.*\b(header|column names?)\b/i;
/** Notes asking for column-by-column reading of multi-column pages. */
const TWO_COLUMNS = /\b(two|2|multi|double)[- ]?colum/i;
/** Notes about page ranges or paging (every paged converter keeps page ranges on every node). */
const PAGE_RANGES = /\bpage[- ]?(ranges?|aware|numbers?)\b/i;
/** Notes that restate what the offline converters always do (schema trees, archive members, OCR, structure-aware keys). */
const NATIVE = /^(schema tree|members are ingested|ocr with tesseract|structure-aware)/i;

export interface ReadPlan {
  directives: PlanDirectives;
  /** special_handling notes no converter step reads */
  unread: string[];
}

export function planDirectives(plan: Strategy): ReadPlan {
  const unread: string[] = [];
  let tablesAsRows = false;
  let twoColumns = false;
  for (const note of plan.special_handling) {
    const t = TABLE_ROWS.test(note);
    const c = TWO_COLUMNS.test(note);
    tablesAsRows ||= t;
    twoColumns ||= c;
    if (!t && !c && !PAGE_RANGES.test(note) && !NATIVE.test(note)) unread.push(note);
  }
  return {
    directives: {
      approach: plan.recommended_approach,
      keySections: plan.key_sections.map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s.length > 0),
      tablesAsRows,
      twoColumns,
      plaintext: plan.convert_to_plaintext,
      targetNodes: plan.estimated_nodes && plan.estimated_nodes > 0 ? plan.estimated_nodes : null,
    },
    unread,
  };
}

/** Notes in the catalog's order: by field, then reason, without duplicates. */
export function sortNotes(notes: PlanNote[]): PlanNote[] {
  const seen = new Set<string>();
  const out: PlanNote[] = [];
  for (const n of notes) {
    const key = `${n.field}\u0000${n.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field: n.field, reason: n.reason });
  }
  return out.sort((a, b) => compareStrings(a.field, b.field) || compareStrings(a.reason, b.reason));
}

/** The notes for special_handling entries no converter step reads. */
export function unreadNotes(unread: string[]): PlanNote[] {
  return unread.map((note) => ({ field: 'special_handling', reason: `"${note}": no converter step reads this note` }));
}
