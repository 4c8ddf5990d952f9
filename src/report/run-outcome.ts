/**
 * One judged run as the CI formats (checks.json, JUnit, SARIF) read it: the findings, the
 * setting they were judged against (the revision the run negotiated), and what kept the run from
 * a plain verdict, if anything. The runner (src/cli) fills it; the formats only lay it out.
 */
import type { Finding, TransportKind } from '../rules/index.ts';
import type { Revision } from '../scenario/index.ts';

export interface RunProblem {
  /** `bad-input`, `run-failed`, `hang`, `bound`, `engine-error` or `not-connected`. */
  kind: string;
  message: string;
  /** The exit code it gives: 1 a finding, 2 bad input, 3 the run could not complete. */
  exitCode: 1 | 2 | 3;
}

export interface RunOutcome {
  /** The scenario as named on the command line (a file path or a permalink), or an explored witness's name. */
  name: string;
  /** Where SARIF places the findings when not at `name`: the file (or link) an explored witness came from. */
  at?: string;
  /** Null when nothing ran (bad input, a failed run). */
  setting: { revision: Revision; transport: TransportKind } | null;
  findings: readonly Finding[];
  problem: RunProblem | null;
  exitCode: 0 | 1 | 2 | 3;
  /** When the run started, ISO 8601. */
  timestamp: string;
}

/** The run's own check, beside the rules': whether it ran and connected at all. */
export const RUN_CHECK = {
  id: 'cancel-lab-run',
  name: 'The run completed',
  description: 'The scenario loaded, ran to its end within its bounds, and the client connected, so its findings are a verdict.',
} as const;
