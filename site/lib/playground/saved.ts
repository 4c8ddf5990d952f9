/**
 * What the user built, kept across a reload: the running scenario, the editor's unsaved text, and
 * the call form's typed arguments.
 * In sessionStorage, not localStorage: it belongs to this tab, so two tabs each keep their own
 * experiment (a shared store would have the last tab to paint overwrite the other's work, and a
 * new tab would open on an old run instead of the default), and it goes when the tab closes.
 */
import { parseScenario, type Scenario } from '../../../src/scenario/index.ts';

const SCENARIO_KEY = 'cancel-lab:scenario';
const EDITOR_KEY = 'cancel-lab:editor';
/** The call form's tool and typed arguments: no part of the run, so not one of SAVED_KEYS (the fresh run is the same with them). */
const CALL_FORM_KEY = 'cancel-lab:call-form';
/** The keys of what is kept: the page's head script looks for them before it starts a fresh run (workers/first-run.ts). */
export const SAVED_KEYS = [SCENARIO_KEY, EDITOR_KEY] as const;

/** Storage can be refused (private modes, quotas): then nothing is kept, and nothing breaks. */
function store(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) store()?.removeItem(key);
    else store()?.setItem(key, value);
  } catch {
    // A full or refused store keeps nothing; the page works as before.
  }
}

export function saveScenario(scenario: Scenario): void {
  write(SCENARIO_KEY, JSON.stringify(scenario));
}

/** The saved scenario, if there is one and it still parses (an older build may have saved another shape). */
export function savedScenario(): Scenario | null {
  const text = store()?.getItem(SCENARIO_KEY);
  if (!text) return null;
  try {
    const parsed = parseScenario(JSON.parse(text));
    return parsed.ok ? parsed.scenario : null;
  } catch {
    return null;
  }
}

/** The editor's text while it differs from the run (null: the editor follows the run). */
export function saveEditorText(text: string | null): void {
  write(EDITOR_KEY, text);
}

export function savedEditorText(): string | null {
  return store()?.getItem(EDITOR_KEY) ?? null;
}

/** The call form as the user left it: the tool picked and each argument's text as typed. */
export interface SavedCallForm {
  tool: string;
  args: Record<string, string>;
}

export function saveCallForm(form: SavedCallForm): void {
  write(CALL_FORM_KEY, JSON.stringify(form));
}

/** The saved call form, if one parses as one; the form checks the tool and the names against its own. */
export function savedCallForm(): SavedCallForm | null {
  try {
    const value: unknown = JSON.parse(store()?.getItem(CALL_FORM_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null || !('tool' in value) || !('args' in value)) return null;
    const { tool, args } = value;
    if (typeof tool !== 'string' || typeof args !== 'object' || args === null) return null;
    return { tool, args: Object.fromEntries(Object.entries(args).filter((e): e is [string, string] => typeof e[1] === 'string')) };
  } catch {
    return null;
  }
}

export function forgetSaved(): void {
  write(SCENARIO_KEY, null);
  write(EDITOR_KEY, null);
  write(CALL_FORM_KEY, null);
}
