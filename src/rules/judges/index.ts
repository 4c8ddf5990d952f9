/**
 * The judges, one per judged rule, gathered from the section files. The catalog types a judged
 * rule's id as a key of this table, so a rule marked judged without a judge does not compile.
 */
import { ADDED_JUDGES } from './added.ts';
import { CORE_JUDGES } from './core.ts';
import type { Judge } from './helpers.ts';
import { PROGRESS_JUDGES } from './progress.ts';
import { RACE_JUDGES } from './races.ts';
import { TASK_JUDGES } from './tasks.ts';
import { TRANSPORT_JUDGES } from './transports.ts';

const BY_SECTION = { ...CORE_JUDGES, ...RACE_JUDGES, ...TRANSPORT_JUDGES, ...PROGRESS_JUDGES, ...TASK_JUDGES, ...ADDED_JUDGES };

export type JudgedRuleId = keyof typeof BY_SECTION;

export const JUDGES: Readonly<Record<JudgedRuleId, Judge>> = BY_SECTION;
