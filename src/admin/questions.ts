/**
 * Question sets for `mhub eval`: JSON Lines, one object a line —
 * `{"id", "query", "expected": [{"file", "pages": [1-based physical pages], "lines": [1-based lines]}], …}`
 * (the FinanceBench format; `lines` is for text and Markdown sources, which have no pages;
 * `rows` for spreadsheets: 1-based data rows, as read_source cites them ("row 2");
 * `sections` names headings of sources with none of these, such as HTML pages; other fields are kept). Bad lines are reported with their line number.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export const Question = z
  .object({
    id: z.string().min(1),
    query: z.string().min(1),
    expected: z
      .array(z.object({
        file: z.string().min(1),
        pages: z.array(z.number().int().positive()).default([]),
        lines: z.array(z.number().int().positive()).optional(),
        rows: z.array(z.number().int().positive()).optional(),
        sections: z.array(z.string().min(1)).optional(),
      }))
      .min(1),
  })
  .passthrough();
export type Question = z.infer<typeof Question>;

export function parseQuestions(text: string, source = 'questions'): Question[] {
  const out: Question[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      throw new UserError(`${source} line ${i + 1} is not valid JSON: ${(err as Error).message}`, 'Each line must be one JSON object: {"id", "query", "expected": [{"file", "pages"}]}.', EXIT.USAGE);
    }
    const parsed = Question.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UserError(`${source} line ${i + 1}: ${issue?.path.join('.') || '(root)'} ${issue?.message}`, 'Each line must be one JSON object: {"id", "query", "expected": [{"file", "pages"}]}.', EXIT.USAGE);
    }
    out.push(parsed.data);
  });
  if (out.length === 0) throw new UserError(`${source} holds no questions.`, 'Give a JSON Lines file with one question a line.', EXIT.USAGE);
  return out;
}

export function readQuestions(path: string): Question[] {
  if (!existsSync(path)) throw new UserError(`Question file not found: ${path}`, 'Give a .jsonl file with one question a line.', EXIT.NOT_FOUND);
  return parseQuestions(readFileSync(path, 'utf8'), path);
}
