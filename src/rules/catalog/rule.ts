/**
 * What a catalog rule is: the keywords and severities, where a quote stands in the spec, the
 * clauses a rule has per revision, and the lookups over one rule (which transports it covers,
 * which clause governs a run).
 */
import { TRANSPORTS, type Revision, type TransportKind } from '../../scenario/index.ts';
import type { JudgedRuleId } from '../judges/index.ts';
import type { Severity } from '../judges/helpers.ts';

export type { Severity };

export type { TransportKind };

export type Keyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'info';

/** MUST / MUST NOT → error, SHOULD / SHOULD NOT → warning, MAY and descriptive text → info. */
export function severityOf(keyword: Keyword): Severity {
  switch (keyword) {
    case 'MUST':
    case 'MUST NOT':
      return 'error';
    case 'SHOULD':
    case 'SHOULD NOT':
      return 'warning';
    case 'MAY':
    case 'info':
      return 'info';
  }
}

export const SPEC_REPO = 'modelcontextprotocol/modelcontextprotocol';
export const SPEC_COMMIT = 'b0f60ba5409db7a6582440a7b473cc0398890f15';
export const EXT_TASKS_REPO = 'modelcontextprotocol/ext-tasks';
export const EXT_TASKS_COMMIT = 'e4345978be1f602f1fc48d89051e8559dd5302a6';

export interface SpecSource {
  repo: typeof SPEC_REPO | typeof EXT_TASKS_REPO;
  commit: string;
  /** Path inside the repository. */
  path: string;
  /** First and last line (1-based, inclusive) the quote spans at `commit`. */
  lines: readonly [number, number];
  /** `https://github.com/<repo>/blob/<commit>/<path>#L<a>-L<b>` */
  url: string;
}

export interface SpecQuote {
  quote: string;
  source: SpecSource;
}

export interface Clause extends SpecQuote {
  keyword: Keyword;
  /** Only on these transports (the binding pages word the rule per transport). Default: the rule's. */
  transports?: readonly TransportKind[];
  /** The same rule stated elsewhere at this revision. */
  also?: readonly SpecQuote[];
}

/** Which part of the digest's matrix (§10) the rule belongs to. */
export type Section = '10.1' | '10.2' | '10.3' | '10.4';

interface RuleBase {
  /** Stable id (the digest's). */
  id: string;
  name: string;
  section: Section;
  /** What the rule asks, in one or two plain sentences (the checks.json description). */
  description: string;
  transports: 'all' | readonly TransportKind[];
  /** The revisions the rule exists in; a revision missing here means the rule does not apply. */
  revisions: Partial<Record<Revision, readonly Clause[]>>;
  /** Digest races (§9, R-n) and ambiguities (§8, U-n) that bear on the rule. */
  notes?: readonly string[];
}

/**
 * A rule is judged from the trace (its id then names one of the checker's judges, which the
 * compiler holds it to) or says why it cannot be.
 */
export type Rule = RuleBase & ({ id: JudgedRuleId; judged: true } | { judged: false; reason: string });

export function ruleTransports(rule: Rule): readonly TransportKind[] {
  return rule.transports === 'all' ? TRANSPORTS : rule.transports;
}

/**
 * The clause that governs `rule` on this revision and transport, or undefined when the rule
 * does not apply there (absent from the revision, or not for this transport).
 */
export function clauseFor(rule: Rule, revision: Revision, transport: TransportKind): Clause | undefined {
  if (!ruleTransports(rule).includes(transport)) return undefined;
  const clauses = rule.revisions[revision];
  if (!clauses) return undefined;
  return clauses.find((c) => !c.transports || c.transports.includes(transport));
}
