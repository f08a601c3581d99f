/** The library overview (`mhub catalog`) as a bounded skill answer with freshness. */
import { libraryOverview, formatOverview, type LibraryOverview, type Shelf } from './library-overview.js';
import { loadCatalog } from './store-read.js';
import { checkFreshness, type Freshness } from '../search/freshness.js';
import { renderFreshness } from './render.js';

/** Source ids listed per shelf (the count is always complete). */
export const OVERVIEW_IDS_PER_SHELF = 10;

export interface OverviewAnswer extends Omit<LibraryOverview, 'shelves'> {
  shelves: Array<Shelf & { ids_more?: number }>;
  truncated: boolean;
  freshness: Freshness;
}

export async function overviewAnswer(root: string, maxChars: number): Promise<OverviewAnswer> {
  const freshness = checkFreshness(root, loadCatalog(root));
  const o = libraryOverview(root);
  let perShelf = OVERVIEW_IDS_PER_SHELF;
  const build = (): OverviewAnswer => ({
    ...o,
    shelves: o.shelves.map((s) => (s.ids.length > perShelf ? { ...s, ids: s.ids.slice(0, perShelf), ids_more: s.ids.length - perShelf } : s)),
    truncated: false,
    freshness,
  });
  let answer = build();
  while (JSON.stringify(answer).length > maxChars && perShelf > 0) {
    perShelf = Math.floor(perShelf / 2);
    answer = build();
    answer.truncated = true;
  }
  while (JSON.stringify(answer).length > maxChars && answer.shelves.length > 1) {
    answer.shelves.pop();
    answer.truncated = true;
  }
  return answer;
}

export function renderOverviewText(a: OverviewAnswer): string {
  return `${formatOverview(a)}\n${renderFreshness(a.freshness)}`;
}
