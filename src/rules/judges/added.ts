/**
 * The judges of the id rules (catalog/ids.ts) and of rules the checker once could not judge
 * (a cancel's receiver, what a POST stream and body carry, resumed streams and expired
 * sessions), gathered for the judges' index.
 */
import { ID_JUDGES } from './ids.ts';
import { RECEIVER_JUDGES } from './receivers.ts';
import { RESUMPTION_JUDGES } from './resumption.ts';
import { STREAM_JUDGES } from './streams.ts';

export const ADDED_JUDGES = { ...ID_JUDGES, ...RECEIVER_JUDGES, ...STREAM_JUDGES, ...RESUMPTION_JUDGES };
