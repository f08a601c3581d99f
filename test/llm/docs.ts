/** Real small documents for the LLM tests: a PDF made with pdf-lib (no outline, no headings) and markdown notes. */
import { writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** Page → lines; the first line of some pages is a section title in body font (a weak offline tree). */
export const REPORT_PAGES: string[][] = [
  ['Fakeco Annual Report 2024', 'This report covers the fiscal year 2024 of Fakeco Incorporated.', 'It was prepared for shareholders and regulators.'],
  ['Part Alpha Operations', 'Fakeco runs three factories and employs 1,200 people.', 'Production grew by eight percent over the year.'],
  ['The factories operate in two shifts with a combined capacity of 40,000 units.', 'Maintenance spending was stable.'],
  ['Part Beta Finances', 'Revenue was 12.4 million dollars, up from 11.1 million.', 'Operating margin improved to 14 percent.'],
  ['Cash at year end was 3.2 million dollars.', 'Debt was reduced by 0.5 million dollars.'],
  ['The board proposes a dividend of 0.40 dollars per share.', 'Capital expenditure is planned at 1.1 million dollars.'],
  ['Part Gamma Outlook', 'Management expects revenue growth of five to seven percent next year.', 'Risks include supply prices.'],
  ['A new product line launches in the second quarter.', 'Hiring will focus on engineering roles.'],
];

export async function writeReportPdf(path: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of REPORT_PAGES) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, i) => page.drawText(line, { x: 72, y: 720 - i * 16, size: 11, font }));
  }
  // fixed dates so the bytes (and the content hash) are the same on every run
  pdf.setCreationDate(new Date('2024-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2024-01-01T00:00:00Z'));
  writeFileSync(path, await pdf.save());
}

export function writeNotes(path: string, title: string): void {
  writeFileSync(
    path,
    [`# ${title}`, '', 'Meeting notes about the Fakeco budget.', '', '## Decisions', '', '- Approve the 2024 budget.', '- Review supplier contracts.', '', '## Actions', '', '- Finance drafts the Q2 forecast.', ''].join('\n'),
  );
}
