/**
 * Judged runs as SARIF 2.1.0, the format GitHub code scanning uploads: one run of the tool
 * `cancel-lab`, its rules the catalog rules a result names (with the spec link as `helpUri`,
 * the keyword as the default level), and one result per violated rule finding — `error` for a
 * MUST, `warning` for a SHOULD, `note` for an open point of the spec — located in the scenario
 * file it came from. A run that gave no verdict is a result of the run's own rule and, for bad
 * input or a run that could not complete, a tool execution notification.
 */
import type { Invocation, Location, Log, ReportingDescriptor, Result } from 'sarif';
import { CATALOG, clauseFor, type Finding, type Rule } from '../rules/index.ts';
import { ENGINE_VERSION, type Revision } from '../scenario/index.ts';
import type { TransportKind } from '../rules/index.ts';
import { linkOpenPoints } from './open-points.ts';
import { RUN_CHECK, type RunOutcome } from './run-outcome.ts';

export interface SarifOptions {
  /** The site's address, for the open-points links and the tool's home. */
  site?: string;
}

const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

type Level = NonNullable<Result['level']>;

function levelOf(f: Finding): Level {
  return f.severity === 'error' ? 'error' : f.severity === 'warning' ? 'warning' : 'note';
}

/** Where a scenario is: its file, relative to the repository root; a permalink has no file and gets a logical location. */
function locationOf(name: string): Location {
  if (/^[a-z][a-z0-9+.-]*:\/\/|^#|^v\d+\./i.test(name)) return { logicalLocations: [{ name: 'permalink', fullyQualifiedName: name, kind: 'resource' }] };
  const path = name.replace(/\\/g, '/').replace(/^\.\//, '');
  const uri = path.split('/').map(encodeURIComponent).join('/');
  // An absolute path is a file: URI of its own, not one under the repository's root.
  const absolute = /^\/|^[A-Za-z]:\//.test(path);
  const artifactLocation = absolute ? { uri: `file://${path.startsWith('/') ? '' : '/'}${uri.replace(/^([A-Za-z])%3A/, '$1:')}` } : { uri, uriBaseId: '%SRCROOT%' };
  return { physicalLocation: { artifactLocation, region: { startLine: 1 } } };
}

function ruleDescriptor(rule: Rule, setting: { revision: Revision; transport: TransportKind }): ReportingDescriptor {
  const clause = clauseFor(rule, setting.revision, setting.transport);
  const level: Level = clause?.keyword.startsWith('MUST') ? 'error' : clause?.keyword.startsWith('SHOULD') ? 'warning' : 'note';
  return {
    id: rule.id,
    name: rule.name,
    shortDescription: { text: rule.name },
    fullDescription: { text: rule.description },
    ...(clause && {
      helpUri: clause.source.url,
      help: { text: `${clause.keyword}: ${clause.quote}\n${clause.source.url}`, markdown: `**${clause.keyword}**: ${clause.quote}\n\n[The spec, ${setting.revision}](${clause.source.url})` },
    }),
    defaultConfiguration: { level },
    properties: { tags: ['mcp', 'cancellation', ...(clause ? [clause.keyword] : [])] },
  };
}

const RUN_DESCRIPTOR: ReportingDescriptor = {
  id: RUN_CHECK.id,
  name: RUN_CHECK.name,
  shortDescription: { text: RUN_CHECK.name },
  fullDescription: { text: RUN_CHECK.description },
  defaultConfiguration: { level: 'error' },
};

/** The SARIF log of one or more judged runs. */
export function toSarif(outcomes: readonly RunOutcome[], options: SarifOptions = {}): Log {
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const indexOf = (id: string, make: () => ReportingDescriptor): number => {
    const known = ruleIndex.get(id);
    if (known !== undefined) return known;
    rules.push(make());
    ruleIndex.set(id, rules.length - 1);
    return rules.length - 1;
  };
  const catalog = new Map(CATALOG.map((r) => [r.id, r]));
  const results: Result[] = [];
  const notifications: NonNullable<Invocation['toolExecutionNotifications']> = [];
  for (const outcome of outcomes) {
    const location = locationOf(outcome.at ?? outcome.name);
    if (outcome.problem !== null) {
      results.push({ ruleId: RUN_CHECK.id, ruleIndex: indexOf(RUN_CHECK.id, () => RUN_DESCRIPTOR), level: 'error', message: { text: outcome.problem.message }, locations: [location] });
      if (outcome.problem.exitCode !== 1) notifications.push({ level: 'error', message: { text: `${outcome.name}: ${outcome.problem.message}` } });
    }
    const setting = outcome.setting;
    if (setting === null) continue;
    for (const f of outcome.findings) {
      const rule = catalog.get(f.rule);
      if (f.verdict !== 'violated' || rule === undefined) continue;
      const text = linkOpenPoints(f.why, (id, href) => `${id} (${href})`, options.site);
      const markdown = linkOpenPoints(f.why.replace(/[\\`*_[\]<>]/g, '\\$&'), (id, href) => `[${id}](${href})`, options.site);
      results.push({
        ruleId: f.rule,
        ruleIndex: indexOf(f.rule, () => ruleDescriptor(rule, setting)),
        level: levelOf(f),
        message: { text, markdown },
        locations: [location],
        properties: { revision: setting.revision, transport: setting.transport, witnesses: f.witnesses, ...(outcome.at !== undefined && { run: outcome.name }) },
      });
    }
  }
  const exitCode = Math.max(0, ...outcomes.map((o) => o.exitCode));
  return {
    version: '2.1.0',
    $schema: SCHEMA,
    runs: [
      {
        tool: { driver: { name: 'cancel-lab', version: ENGINE_VERSION, ...(options.site !== undefined && { informationUri: options.site }), rules } },
        invocations: [{ executionSuccessful: exitCode < 2, exitCode, ...(notifications.length > 0 && { toolExecutionNotifications: notifications }) }],
        results,
      },
    ],
  };
}
