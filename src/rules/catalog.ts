/**
 * The rule catalog: every cancellation-related rule of every MCP revision, as data, one file
 * per section of the digest's matrix (catalog/core.ts … catalog/tasks.ts; what a rule is:
 * catalog/rule.ts).
 *
 * Source: the team's spec digest (`shared/research/spec-cancellation.md`), §§3–7 for the
 * quotes and §10.1–10.4 for the matrix; each quote was checked against the spec files at the
 * commit below. Rule ids are the digest's. A quote is verbatim under the digest's conventions
 * (§0.3): Markdown emphasis and links kept, source line breaks collapsed to one space, list
 * markers dropped, ` | ` between consecutive list items, ` … ` where source text is left out.
 *
 * A rule lists, per revision, one or more clauses: the keyword (RFC 2119, or `info` for a
 * descriptive sentence), the quote, and where it stands (path and lines at the pinned commit,
 * with a full link). A clause may be limited to some transports when the binding pages word
 * the rule differently; `also` holds the same rule restated elsewhere (schema comments,
 * binding pages). Rules the checker cannot judge from a trace say so, with the reason.
 */
import { CORE } from './catalog/core.ts';
import { ID_RULES } from './catalog/ids.ts';
import { PROGRESS_RULES } from './catalog/progress.ts';
import type { Rule } from './catalog/rule.ts';
import { TASK_RULES } from './catalog/tasks.ts';
import { TRANSPORT_RULES } from './catalog/transports.ts';

/** Every rule, in the digest's matrix order (10.1, 10.2, 10.3, 10.4). */
export const CATALOG: readonly Rule[] = [...CORE, ...ID_RULES, ...TRANSPORT_RULES, ...PROGRESS_RULES, ...TASK_RULES];

const BY_ID = new Map(CATALOG.map((rule) => [rule.id, rule]));

export function ruleById(id: string): Rule | undefined {
  return BY_ID.get(id);
}
