/**
 * A page read again with pdfjs (its words came out run together in pdftohtml's reading) must name
 * its fonts as the native reader named the rest of the file: pdfjs calls them "g_d0_f1", poppler
 * "XSOKYN+Times New Roman" (",b"/",i" for bold and italic faces). With pdfjs's names every line of
 * such a page differed from the body font and read as emphasised, so a paragraph's last words
 * ("Vegas Strip resorts:") became headings. Each pdfjs font takes the native name of the runs it
 * covers on the same page; a font that covers none keeps its pdfjs name.
 */
import type { RawItem } from './lines.js';

/** A pdfjs run and a native run share a baseline when their baselines are within this share of the font size. */
export const SAME_BASELINE_SHARE = 0.5;

interface Span {
  x: number;
  x2: number;
  y: number;
  size: number;
  font: string;
}

function spanOf(item: RawItem): Span | null {
  const t = item.transform;
  if (!t || !item.fontName || !(item.str ?? '').trim()) return null;
  const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || Math.abs(t[0] ?? 0);
  const x = t[4] ?? 0;
  return { x, x2: x + Math.max(item.width ?? 0, 0), y: t[5] ?? 0, size, font: item.fontName };
}

/** For each pdfjs font on the page, the native font whose runs it overlaps most (by width shared on a baseline). */
function fontVotes(pdfjs: Span[], native: Span[]): Map<string, string> {
  const votes = new Map<string, Map<string, number>>();
  const byY = [...native].sort((a, b) => a.y - b.y);
  for (const s of pdfjs) {
    const reach = s.size * SAME_BASELINE_SHARE;
    let lo = 0;
    let hi = byY.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byY[mid]!.y < s.y - reach) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < byY.length && byY[k]!.y <= s.y + reach; k++) {
      const n = byY[k]!;
      const shared = Math.min(s.x2, n.x2) - Math.max(s.x, n.x);
      if (shared <= 0) continue;
      const tally = votes.get(s.font) ?? new Map<string, number>();
      tally.set(n.font, (tally.get(n.font) ?? 0) + shared);
      votes.set(s.font, tally);
    }
  }
  const names = new Map<string, string>();
  for (const [font, tally] of votes) {
    let best = '';
    let most = 0;
    // ties go to the name sorted first, so the choice never depends on the order of the runs
    for (const [name, w] of [...tally].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (w > most) [best, most] = [name, w];
    if (best) names.set(font, best);
  }
  return names;
}

/** `items` (pdfjs's runs of one page) with their fonts named as in `nativeItems` (pdftohtml's runs of that page). */
export function withNativeFonts(items: RawItem[], nativeItems: readonly RawItem[]): RawItem[] {
  const spans = (list: readonly RawItem[]) => list.map(spanOf).filter((s): s is Span => s !== null);
  const names = fontVotes(spans(items), spans(nativeItems));
  if (names.size === 0) return items;
  return items.map((it) => (it.fontName && names.has(it.fontName) ? { ...it, fontName: names.get(it.fontName)! } : it));
}
